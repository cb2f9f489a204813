import {
  visualBrandCheckerPaths,
  visualBrandCheckerSettingsSchema,
} from '@gem/contracts/visual-brand-checker';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Tells the page where the external brand checker is (the CSP allows only that origin in frames). */
export const visualBrandCheckerRoutes: FastifyPluginAsyncZod<{ url: string | undefined }> = async (
  app,
  { url },
) => {
  app.get(
    visualBrandCheckerPaths.settings,
    { schema: { response: { 200: visualBrandCheckerSettingsSchema } } },
    () => ({ url: url ?? null }),
  );
};
