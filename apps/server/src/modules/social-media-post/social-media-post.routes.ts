import { generatorRoutes } from '../../lib/writing-tools/generator-routes';
import { socialMediaPostGenerator } from './social-media-post.generator';

/** POST /api/generators/social-media-post (NDJSON stream) and its history. */
export const socialMediaPostRoutes = generatorRoutes(socialMediaPostGenerator);
