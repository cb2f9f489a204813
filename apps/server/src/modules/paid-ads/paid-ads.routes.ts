import { generatorRoutes } from '../../lib/writing-tools/generator-routes';
import { paidAdsGenerator } from './paid-ads.generator';

/** POST /api/generators/paid-ads (NDJSON stream) and its history. */
export const paidAdsRoutes = generatorRoutes(paidAdsGenerator);
