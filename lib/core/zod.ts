import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Schemas carry their OpenAPI metadata, so the document is generated from the same objects that validate.
extendZodWithOpenApi(z);

export { z };
