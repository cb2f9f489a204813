import type { LanguageModel } from 'ai';
import type { AiServiceConfig } from '../../config';

const datedApiVersion = /^\d{4}-\d{2}-\d{2}/;

/**
 * The configured provider's model. Each provider package is loaded only when it is the one
 * configured, at the first call, so a start does not pay for the other three.
 */
export async function languageModel(service: AiServiceConfig): Promise<LanguageModel> {
  switch (service.provider) {
    case 'demo':
      throw new Error('the demo stand-in is spoken to as an OpenAI-compatible server (demo-text-model.ts)');
    case 'openai': {
      const { createOpenAI } = await import('@ai-sdk/openai');
      return createOpenAI({ apiKey: service.apiKey, baseURL: service.baseUrl }).chat(service.model);
    }
    case 'openai-compatible': {
      const { createOpenAICompatible } = await import('@ai-sdk/openai-compatible');
      return createOpenAICompatible({
        name: 'openai-compatible',
        baseURL: service.baseUrl,
        apiKey: service.apiKey,
        includeUsage: true,
        // Sends an object's schema as response_format json_schema (else only json_object).
        supportsStructuredOutputs: true,
      }).chatModel(service.model);
    }
    case 'anthropic': {
      const { createAnthropic } = await import('@ai-sdk/anthropic');
      return createAnthropic({ apiKey: service.apiKey, baseURL: service.baseUrl })(service.model);
    }
    case 'azure': {
      const { createAzure } = await import('@ai-sdk/azure');
      return createAzure({
        apiKey: service.apiKey,
        resourceName: service.resourceName,
        baseURL: service.baseUrl,
        apiVersion: service.apiVersion,
        // Dated API versions (e.g. 2024-10-21) only exist on the deployment URLs.
        useDeploymentBasedUrls: datedApiVersion.test(service.apiVersion),
      }).chat(service.deployment);
    }
  }
}
