import { generatorRoutes } from '../../lib/writing-tools/generator-routes';
import { articleGenerator } from './article.generator';

/** POST /api/generators/article (NDJSON stream) and its history. */
export const articleRoutes = generatorRoutes(articleGenerator);
