import { defineVerb } from '@/lib/core/verb';
import { presentMedia } from './internal/present';
import { getMediaInAccount } from './internal/queries';
import { mediaPathSchema } from './schemas';

/** One file's metadata and public URL. */
export const getMedia = defineVerb({
  scope: 'templates:read',
  input: mediaPathSchema,
  async run({ db, config, principal }, input) {
    return presentMedia(config, await getMediaInAccount(db, principal.targetAccountId, input.media_id));
  },
});
