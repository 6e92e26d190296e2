ALTER TABLE "campaigns" ADD COLUMN "snapshot_through" uuid;
