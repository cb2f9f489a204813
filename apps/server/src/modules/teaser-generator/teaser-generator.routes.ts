import { generatorRoutes } from '../../lib/writing-tools/generator-routes';
import { teaserGenerator } from './teaser-generator.generator';

/** POST /api/generators/teaser-generator (NDJSON stream) and its history. */
export const teaserGeneratorRoutes = generatorRoutes(teaserGenerator);
