import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '@/lib/auth/principal';
import { deleteMedia } from '@/lib/core/media/delete-media';
import { getMedia } from '@/lib/core/media/get-media';
import { listMedia } from '@/lib/core/media/list-media';
import { unsafeFindPublicMedia } from '@/lib/core/media/unsafe-find-public-media';
import { uploadMedia } from '@/lib/core/media/upload-media';
import { mediaFiles } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
import { IMAGES } from '../../../../e2e/support/media-fixtures';
import { as, keyPrincipal, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/** The media verbs on an in-memory PGlite with a 1 KB quota: what is stored, what is refused, and for whom. */
let services: TestServices;
let principal: Principal;
let accountId: string;
let other: Principal;

beforeAll(async () => {
  services = await memoryServices({ mediaQuotaBytes: 1024, publicUrl: new URL('https://mail.example.com/base/') });
  ({ principal, accountId } = await newAccount(services));
  ({ principal: other } = await newAccount(services, 'Other'));
}, 60_000);

afterAll(() => services?.close());

async function* bytesOf(buffer: Buffer) {
  yield buffer;
}

const upload = (bytes: Buffer, extra: Record<string, unknown> = {}, who = principal) =>
  uploadMedia(as(services, who), {
    content_type: 'image/png',
    declared_bytes: bytes.length,
    body: bytesOf(bytes),
    ...extra,
  });

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('media verbs', () => {
  it('stores the detected type, a clean name and the bytes; the URL is PUBLIC_URL + /media/{id}.{ext}', async () => {
    const media = await upload(IMAGES.webp, { name: '../x/\u0007cat.png' });
    expect(media).toMatchObject({ name: 'cat.png', content_type: 'image/webp', width: 3, height: 2, size_bytes: 60 });
    expect(media.url).toBe(`https://mail.example.com/base/media/${media.id}.webp`);
    expect(await getMedia(as(services, principal), { media_id: media.id })).toEqual(media);
    const served = await unsafeFindPublicMedia(services, `${media.id}.webp`);
    expect(served?.content.equals(IMAGES.webp)).toBe(true);
    expect(await unsafeFindPublicMedia(services, `${media.id}.png`)).toBeNull();
    expect(await unsafeFindPublicMedia(services, `../${media.id}.webp`)).toBeNull();
  });

  it('refuses an SVG and stores nothing', async () => {
    const error = await rejection(upload(Buffer.from('<svg onload="alert(1)"/>')));
    expect([error.kind, error.field, error.message]).toEqual([
      'invalid_input',
      'file',
      expect.stringMatching(/^SVG is refused/),
    ]);
  });

  it('refuses what would pass the quota, naming what is used', async () => {
    const { principal: own, accountId: ownId } = await newAccount(services, 'Quota');
    for (let i = 0; i < 10; i++) await upload(IMAGES.png, {}, own);
    const error = await rejection(upload(IMAGES.png, {}, own));
    expect(error.kind).toBe('too_large');
    expect(error.message).toMatch(/^the media library is full/);
    const rows = await services.db
      .select({ size: mediaFiles.sizeBytes })
      .from(mediaFiles)
      .where(eq(mediaFiles.accountId, ownId));
    expect(rows.reduce((sum, row) => sum + row.size, 0)).toBeLessThanOrEqual(1024);
  });

  it('keeps accounts apart, and asks for the templates scopes', async () => {
    const media = await upload(IMAGES.gif);
    expect((await rejection(getMedia(as(services, other), { media_id: media.id }))).kind).toBe('not_found');
    expect((await rejection(deleteMedia(as(services, other), { media_id: media.id }))).kind).toBe('not_found');
    const page = await listMedia(as(services, other), {});
    expect(page.items.map((item) => item.id)).not.toContain(media.id);
    const reader = keyPrincipal(accountId, ['templates:read']);
    expect((await rejection(upload(IMAGES.gif, {}, reader))).kind).toBe('forbidden');
    expect((await rejection(deleteMedia(as(services, reader), { media_id: media.id }))).kind).toBe('forbidden');
    await deleteMedia(as(services, principal), { media_id: media.id });
    expect(await unsafeFindPublicMedia(services, `${media.id}.gif`)).toBeNull();
  });
});
