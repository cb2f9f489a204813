import { generatorRoutes } from '../../lib/generations/generator-routes';
import { articleGenerator } from './article.generator';

/** POST /api/generators/article (NDJSON stream) and its history. */
export const articleRoutes = generatorRoutes(articleGenerator);
