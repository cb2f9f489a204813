import { describe, expect, it } from 'vitest';
import { configProblems } from '../../test/test-config';
import { parseConfig } from './index';

describe('AI service settings', () => {
  it('leaves the AI service off with nothing set (but the embedded defaults), with the default timeout and limits', () => {
    expect(parseConfig({ NODE_ENV: 'test' }).ai).toEqual({
      service: null,
      timeoutMs: 60_000,
      maxRetries: 2,
      retryBaseDelayMs: 1_000,
      limits: { perMinute: 20, concurrent: 6 },
      structuredOutput: 'json-schema',
      contextTokens: 32_000,
      maxOutputTokens: {},
    });
  });

  it('reads the context window and the writing tools’ answer sizes, and names what is wrong', () => {
    const ai = parseConfig({
      GEM_AI_CONTEXT_TOKENS: '128000',
      GEM_AI_MAX_OUTPUT_TOKENS: 'article=900, paid-ads=1200',
    }).ai;
    expect(ai.contextTokens).toBe(128_000);
    expect(ai.maxOutputTokens).toEqual({ article: 900, 'paid-ads': 1_200 });
    expect(configProblems({ GEM_AI_CONTEXT_TOKENS: '1000' }).join('\n')).toContain('at least 4000');
    expect(configProblems({ GEM_AI_CONTEXT_TOKENS: '32k' }).join('\n')).toContain('GEM_AI_CONTEXT_TOKENS');
    const problems = configProblems({
      GEM_AI_MAX_OUTPUT_TOKENS: 'blog=900,article=lots,teaser-generator=5',
    }).join('\n');
    expect(problems).toContain('“blog” is not a writing tool');
    expect(problems).toContain('article: must be a number of tokens');
    expect(problems).toContain('teaser-generator: must be a number of tokens');
  });

  it('asks for structured answers as a tool call when told, and refuses other modes', () => {
    expect(parseConfig({ GEM_AI_STRUCTURED_OUTPUT: 'tool' }).ai.structuredOutput).toBe('tool');
    expect(configProblems({ GEM_AI_STRUCTURED_OUTPUT: 'grammar' }).join('\n')).toContain(
      'GEM_AI_STRUCTURED_OUTPUT',
    );
  });

  it('reads each provider', () => {
    expect(
      parseConfig({ GEM_AI_PROVIDER: 'openai', GEM_AI_MODEL: 'gpt-4o', GEM_AI_API_KEY: 'sk-1' }).ai.service,
    ).toEqual({ provider: 'openai', model: 'gpt-4o', apiKey: 'sk-1', baseUrl: undefined });
    expect(
      parseConfig({
        GEM_AI_PROVIDER: 'openai-compatible',
        GEM_AI_MODEL: 'llama3',
        GEM_AI_BASE_URL: 'http://127.0.0.1:11434/v1',
      }).ai.service,
    ).toEqual({
      provider: 'openai-compatible',
      model: 'llama3',
      apiKey: undefined,
      baseUrl: 'http://127.0.0.1:11434/v1',
    });
    expect(
      parseConfig({
        GEM_AI_PROVIDER: 'azure',
        GEM_AI_AZURE_RESOURCE: 'contoso-openai',
        GEM_AI_AZURE_DEPLOYMENT: 'gpt-4o-prod',
        GEM_AI_API_KEY: 'key',
      }).ai.service,
    ).toEqual({
      provider: 'azure',
      model: 'gpt-4o-prod',
      deployment: 'gpt-4o-prod',
      apiKey: 'key',
      resourceName: 'contoso-openai',
      baseUrl: undefined,
      apiVersion: 'v1',
    });
  });

  it('lists every missing or contradictory setting', () => {
    expect(configProblems({ GEM_AI_MODEL: 'gpt-4o' })).toEqual([
      'GEM_AI_MODEL: is set but GEM_AI_PROVIDER is not; set the provider too, or unset GEM_AI_MODEL',
    ]);
    expect(configProblems({ GEM_AI_PROVIDER: 'anthropic', GEM_AI_AZURE_DEPLOYMENT: 'x' }).sort()).toEqual([
      'GEM_AI_API_KEY: is required with GEM_AI_PROVIDER=anthropic',
      'GEM_AI_AZURE_DEPLOYMENT: applies to GEM_AI_PROVIDER=azure only',
      'GEM_AI_MODEL: is required with GEM_AI_PROVIDER=anthropic',
    ]);
    expect(configProblems({ GEM_AI_PROVIDER: 'azure' }).map((p) => p.split(':')[0])).toEqual([
      'GEM_AI_AZURE_RESOURCE',
      'GEM_AI_AZURE_DEPLOYMENT',
      'GEM_AI_API_KEY',
    ]);
  });
});

describe('the built-in stand-in (GEM_AI_PROVIDER=demo)', () => {
  const demo = { provider: 'demo', model: 'gem-demo-stand-in' };

  it('answers on the embedded defaults that npm start runs (development, demo accounts on this machine)', () => {
    expect(parseConfig({ NODE_ENV: 'development' }).ai.service).toEqual(demo);
    expect(parseConfig({}).ai.service).toEqual(demo);
  });

  it('is off in tests, without demo accounts, and in production', () => {
    expect(parseConfig({ NODE_ENV: 'test' }).ai.service).toBeNull();
    expect(parseConfig({ GEM_DEMO_ACCOUNTS: 'false' }).ai.service).toBeNull();
    expect(parseConfig({ GEM_HOST: '0.0.0.0' }).ai.service).toBeNull();
    expect(parseConfig({ NODE_ENV: 'production', GEM_EMBEDDED_IDP: 'true' }).ai.service).toBeNull();
  });

  it('gives way to a real provider, and to half a set-up (which is reported)', () => {
    expect(
      parseConfig({ GEM_AI_PROVIDER: 'openai', GEM_AI_MODEL: 'gpt-4o', GEM_AI_API_KEY: 'sk-1' }).ai.service
        ?.provider,
    ).toBe('openai');
    expect(configProblems({ GEM_AI_MODEL: 'gpt-4o' }).join('\n')).toContain('GEM_AI_PROVIDER is not');
  });

  it('can be asked for on purpose, but never in production', () => {
    expect(parseConfig({ NODE_ENV: 'test', GEM_AI_PROVIDER: 'demo' }).ai.service).toEqual(demo);
    const problems = configProblems({
      NODE_ENV: 'production',
      GEM_AI_PROVIDER: 'demo',
      GEM_EMBEDDED_IDP: 'true',
    }).join('\n');
    expect(problems).toContain(
      'GEM_AI_PROVIDER: demo (the built-in stand-in, example answers) is refused in production',
    );
    expect(configProblems({ GEM_AI_PROVIDER: 'demo', GEM_AI_MODEL: 'x' }).join('\n')).toContain(
      'GEM_AI_MODEL: does not apply to GEM_AI_PROVIDER=demo',
    );
  });
});
