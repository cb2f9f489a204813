import { generatorRoutes } from '../../lib/generations/generator-routes';
import { paidAdsGenerator } from './paid-ads.generator';

/** POST /api/generators/paid-ads (NDJSON stream) and its history. */
export const paidAdsRoutes = generatorRoutes(paidAdsGenerator);
