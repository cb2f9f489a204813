import { writingToolNames, type WritingToolName } from '@gem/contracts/writing-tools';
import { z } from 'zod';
import { commaList, httpUrl, positiveInt } from './env-values';

/** The AI text service (issue 4): which provider, its timeout, and the per-user limits. */

export const aiProviders = ['openai', 'azure', 'anthropic', 'openai-compatible', 'demo'] as const;

/** What the built-in stand-in reports as its model, in records and on the AI status. */
export const DEMO_MODEL = 'gem-demo-stand-in';
export type AiProvider = (typeof aiProviders)[number];

/**
 * How structured answers (the brief creator's turns) are asked for: as the answer's JSON schema
 * (`response_format`), or as a function tool the model must call, for servers that only
 * constrain tool calls.
 */
export const structuredOutputModes = ['json-schema', 'tool'] as const;

export const aiEnv = z.object({
  GEM_AI_PROVIDER: z.enum(aiProviders, { error: `must be one of ${aiProviders.join(', ')}` }).optional(),
  GEM_AI_MODEL: z.string().min(1).max(200).optional(),
  GEM_AI_API_KEY: z.string().min(1).max(4096).optional(),
  GEM_AI_BASE_URL: httpUrl.optional(),
  GEM_AI_AZURE_RESOURCE: z
    .string()
    .regex(
      /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i,
      'must be the resource name only, e.g. contoso-openai (use GEM_AI_BASE_URL for a full address)',
    )
    .optional(),
  GEM_AI_AZURE_DEPLOYMENT: z.string().min(1).max(200).optional(),
  GEM_AI_AZURE_API_VERSION: z
    .string()
    .regex(
      /^(v1|preview|\d{4}-\d{2}-\d{2}(-preview)?)$/,
      'must be v1, preview or a dated version like 2024-10-21',
    )
    .optional(),
  GEM_AI_TIMEOUT_MS: positiveInt(10 * 60 * 1000).default(60_000),
  GEM_AI_RATE_LIMIT_PER_MINUTE: positiveInt(10_000).default(20),
  // Six: a campaign's 'Generate all' starts its usual six assets at once (decision 027).
  GEM_AI_MAX_CONCURRENT_PER_USER: positiveInt(100).default(6),
  GEM_AI_STRUCTURED_OUTPUT: z
    .enum(structuredOutputModes, { error: `must be one of ${structuredOutputModes.join(', ')}` })
    .default('json-schema'),
  GEM_AI_CONTEXT_TOKENS: z.coerce
    .number({ error: 'must be the model’s context window in tokens, e.g. 32000' })
    .int()
    .min(4_000, { error: 'must be at least 4000 tokens: GEM’s prompts need that much' })
    .max(10_000_000)
    .default(32_000),
  GEM_AI_MAX_OUTPUT_TOKENS: z
    .string()
    .transform((raw, ctx) => maxOutputTokensSetting(raw, ctx))
    .optional(),
});

/**
 * GEM_AI_MAX_OUTPUT_TOKENS: per writing tool, the most tokens an answer may take, as
 * `tool=tokens` pairs (`article=900,paid-ads=1200`); tools left out keep their own.
 */
function maxOutputTokensSetting(raw: string, ctx: z.RefinementCtx): Partial<Record<WritingToolName, number>> {
  const out: Partial<Record<WritingToolName, number>> = {};
  for (const pair of commaList(raw)) {
    const [name = '', value = ''] = pair.split('=').map((v) => v.trim());
    const tokens = /^\d{1,6}$/.test(value) ? Number(value) : NaN;
    if (!(writingToolNames as readonly string[]).includes(name)) {
      ctx.addIssue({
        code: 'custom',
        message: `“${name}” is not a writing tool (one of ${writingToolNames.join(', ')})`,
      });
    } else if (!(tokens >= 100 && tokens <= 100_000)) {
      ctx.addIssue({
        code: 'custom',
        message: `${name}: must be a number of tokens from 100 to 100000, e.g. ${name}=1000`,
      });
    } else {
      out[name as WritingToolName] = tokens;
    }
  }
  return out;
}

export type AiEnv = z.infer<typeof aiEnv>;

/** The AI text service (issue 4); see README "AI service". */
export type AiServiceConfig =
  /**
   * The built-in stand-in (no AI service is configured): plausible example answers, so the AI
   * tools can be tried on the embedded defaults. Never in production.
   */
  | { provider: 'demo'; model: typeof DEMO_MODEL }
  | { provider: 'openai'; model: string; apiKey: string; baseUrl: string | undefined }
  | { provider: 'anthropic'; model: string; apiKey: string; baseUrl: string | undefined }
  /** Any server with the chat-completions API: Ollama, vLLM, LM Studio, llama.cpp. */
  | { provider: 'openai-compatible'; model: string; apiKey: string | undefined; baseUrl: string }
  | {
      provider: 'azure';
      /** What GEM reports and records; the deployment's name unless GEM_AI_MODEL says otherwise. */
      model: string;
      deployment: string;
      apiKey: string;
      /** One of these two names the endpoint. */
      resourceName: string | undefined;
      baseUrl: string | undefined;
      apiVersion: string;
    };

export type AiConfig = {
  /** null: no AI service is configured; the AI tools answer 503 ai_not_configured. */
  service: AiServiceConfig | null;
  /** Each model call, retries and their waits included. */
  timeoutMs: number;
  /** A 429 or 5xx is retried at most this often. */
  maxRetries: number;
  /** The first wait before a retry when the service sends no Retry-After; doubles after. */
  retryBaseDelayMs: number;
  /** Per user, shared by every instance through the database. */
  limits: { perMinute: number; concurrent: number };
  /** How an object's schema reaches the model unless a call says otherwise. */
  structuredOutput: (typeof structuredOutputModes)[number];
  /** The model's context window: a call whose prompt would not fit is refused before it is made. */
  contextTokens: number;
  /** Per writing tool, overrides of the most tokens its answer may take. */
  maxOutputTokens: Partial<Record<WritingToolName, number>>;
};

/** What decides whether the stand-in answers when no provider is set. */
export type AiDefaults = {
  /** The embedded defaults (demo accounts, in development): the stand-in answers. */
  standInByDefault: boolean;
  /** Production refuses the stand-in, as it refuses the demo accounts. */
  production: boolean;
};

export function aiConfig(e: AiEnv, defaults: AiDefaults, problems: string[]): AiConfig {
  return {
    service: aiServiceConfig(e, defaults, problems),
    timeoutMs: e.GEM_AI_TIMEOUT_MS,
    maxRetries: 2,
    retryBaseDelayMs: 1_000,
    limits: { perMinute: e.GEM_AI_RATE_LIMIT_PER_MINUTE, concurrent: e.GEM_AI_MAX_CONCURRENT_PER_USER },
    structuredOutput: e.GEM_AI_STRUCTURED_OUTPUT,
    contextTokens: e.GEM_AI_CONTEXT_TOKENS,
    maxOutputTokens: e.GEM_AI_MAX_OUTPUT_TOKENS ?? {},
  };
}

/** Which AI service GEM uses; every missing or contradictory setting is one problem. */
function aiServiceConfig(e: AiEnv, defaults: AiDefaults, problems: string[]): AiServiceConfig | null {
  const provider = e.GEM_AI_PROVIDER;
  const azureOnly = ['GEM_AI_AZURE_RESOURCE', 'GEM_AI_AZURE_DEPLOYMENT', 'GEM_AI_AZURE_API_VERSION'] as const;
  const serviceSettings = ['GEM_AI_MODEL', 'GEM_AI_API_KEY', 'GEM_AI_BASE_URL', ...azureOnly] as const;
  if (!provider) {
    // Half a set-up must not leave the AI tools off silently.
    for (const name of serviceSettings) {
      if (e[name])
        problems.push(`${name}: is set but GEM_AI_PROVIDER is not; set the provider too, or unset ${name}`);
    }
    return defaults.standInByDefault && !serviceSettings.some((name) => e[name])
      ? { provider: 'demo', model: DEMO_MODEL }
      : null;
  }
  if (provider === 'demo') {
    if (defaults.production) {
      problems.push(
        'GEM_AI_PROVIDER: demo (the built-in stand-in, example answers) is refused in production; set a real AI service',
      );
    }
    for (const name of serviceSettings) {
      if (e[name]) problems.push(`${name}: does not apply to GEM_AI_PROVIDER=demo`);
    }
    return { provider: 'demo', model: DEMO_MODEL };
  }
  const required = (name: 'GEM_AI_MODEL' | 'GEM_AI_API_KEY' | 'GEM_AI_BASE_URL', example = '') => {
    const value = e[name];
    if (!value) problems.push(`${name}: is required with GEM_AI_PROVIDER=${provider}${example}`);
    return value ?? '';
  };
  if (provider !== 'azure') {
    for (const name of azureOnly) {
      if (e[name]) problems.push(`${name}: applies to GEM_AI_PROVIDER=azure only`);
    }
  }
  switch (provider) {
    case 'openai':
    case 'anthropic':
      return {
        provider,
        model: required('GEM_AI_MODEL'),
        apiKey: required('GEM_AI_API_KEY'),
        baseUrl: e.GEM_AI_BASE_URL,
      };
    case 'openai-compatible':
      return {
        provider,
        model: required('GEM_AI_MODEL'),
        apiKey: e.GEM_AI_API_KEY,
        baseUrl: required('GEM_AI_BASE_URL', ', e.g. http://127.0.0.1:11434/v1 for Ollama'),
      };
    case 'azure': {
      if (!e.GEM_AI_AZURE_RESOURCE && !e.GEM_AI_BASE_URL) {
        problems.push(
          'GEM_AI_AZURE_RESOURCE: is required with GEM_AI_PROVIDER=azure (the resource name, e.g. contoso-openai), unless GEM_AI_BASE_URL gives the endpoint',
        );
      }
      if (e.GEM_AI_AZURE_RESOURCE && e.GEM_AI_BASE_URL) {
        problems.push(
          'GEM_AI_BASE_URL: set either it or GEM_AI_AZURE_RESOURCE with GEM_AI_PROVIDER=azure, not both',
        );
      }
      const deployment = e.GEM_AI_AZURE_DEPLOYMENT ?? e.GEM_AI_MODEL;
      if (!deployment) {
        problems.push(
          'GEM_AI_AZURE_DEPLOYMENT: is required with GEM_AI_PROVIDER=azure (the deployment name; GEM_AI_MODEL is used when it is unset)',
        );
      }
      return {
        provider,
        model: e.GEM_AI_MODEL ?? deployment ?? '',
        deployment: deployment ?? '',
        apiKey: required('GEM_AI_API_KEY'),
        resourceName: e.GEM_AI_AZURE_RESOURCE,
        baseUrl: e.GEM_AI_BASE_URL,
        apiVersion: e.GEM_AI_AZURE_API_VERSION ?? 'v1',
      };
    }
  }
}
