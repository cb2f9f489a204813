// A campaign's assets as the local test server answers them (testing/api-server.ts), shaped and
// refused as the real server (modules/campaigns/campaign-assets.service.ts) shapes and refuses
// them: one asset per channel, every generation and save a version, a save on an older version
// kept as a 'conflict' version and answered 409, a generation streamed as the writing tools'
// NDJSON events and saved before its final event, 409 naming whoever holds the asset's lease.
import type { StyleCheck } from '@gem/contracts/brand-voice';
import {
  assetInstructionPresets,
  assetUtmOf,
  campaignAssetPath,
  campaignAssetsPath,
  campaignGenerateAllPath,
  type GenerateAllEvent,
  tooLongForChannel,
  type AssetProvenance,
  type AssetStatus,
  type AssetVersion,
  type AssetVersionKind,
  type CampaignAsset,
  type CampaignAssetDetails,
  type GenerateAssetRequest,
  type StoredUtm,
  type UpdateAssetRequest,
  updateAssetRequestSchema,
} from '@gem/contracts/campaign-assets';
import {
  campaignChannelIds,
  campaignChannels,
  type CampaignChannelId,
} from '@gem/contracts/campaign-channels';
import type { CampaignPerson } from '@gem/contracts/campaigns';
import type { ServerResponse } from 'node:http';
import { beforeEach } from 'vitest';

import { deltas, final, json, type serveApi, type StreamItem } from '@/testing/api-server';

import { CAMPAIGN_ID, COLLEAGUE, ME } from '../../testing/fake-campaigns-api';

const AT = '2026-03-14T10:30:00.000Z';
let generations = 0;

type Server = ReturnType<typeof serveApi>;

type StoredAsset = {
  status: AssetStatus;
  current: number;
  versions: AssetVersion[];
  generating: { by: CampaignPerson; until: string } | null;
  lastError: string | null;
  utm: StoredUtm;
  /** The style check stored with each generated version (issue 31), by version. */
  styles?: Record<number, StyleCheck>;
};

/** What a generation answers: the stream's events (the fake saves the final text), or a refusal. */
export type AssetReply =
  | { kind: 'stream'; events: readonly StreamItem[] }
  | {
      kind: 'error';
      status: number;
      code: string;
      message: string;
      issues?: { path: string; message: string }[];
    };

const refusal = (code: string, message: string, issues?: { path: string; message: string }[]) => ({
  error: { code, message, ...(issues ? { issues } : {}), requestId: 'req-test' },
});

/** The inputs 'Generate from brief' shows, per tool, as the server's brief-to-inputs would fill them. */
export const briefInputs = {
  article: {
    content: 'Kampania: Spring Webinar',
    task: 'Napisz krótki artykuł o kampanii „Spring Webinar”.',
  },
  'social-media-post': {
    summary: 'Kampania: Spring Webinar\nCel główny: Leads from CFOs',
    content: 'Kampania: Spring Webinar',
    description: 'LinkedIn post kampanii „Spring Webinar”.',
    format: 300,
    persona: 'CEO',
  },
  'paid-ads': { content: 'Kampania: Spring Webinar\n\nGoogle Ads.' },
  'teaser-generator': { content: 'Kampania: Spring Webinar\n\nE-mail teaser.' },
} as const;

/**
 * Installs the asset routes of CAMPAIGN_ID before each test (exact paths, so they answer before
 * the campaigns fake's catch-all). Tests seed assets with `seed`, queue generations with `reply`,
 * read what was sent in `state.generated`, `state.saves`, `state.restores`, and stand in for a
 * colleague with `saveAsSomeoneElse` and `generatingAsSomeoneElse`.
 */
export function fakeAssetsApi(server: Server, campaignId = CAMPAIGN_ID) {
  const state = {
    assets: {} as Partial<Record<CampaignChannelId, StoredAsset>>,
    replies: [] as AssetReply[],
    generated: [] as { channel: CampaignChannelId; body: GenerateAssetRequest }[],
    saves: [] as { channel: CampaignChannelId; text: string; baseVersion: number }[],
    restores: [] as { channel: CampaignChannelId; version: number }[],
    statuses: [] as { channel: CampaignChannelId; status: AssetStatus }[],
    utms: [] as { channel: CampaignChannelId; utm: UpdateAssetRequest['utm'] }[],
    /** What 'Generate all' writes for each channel, with the style check its saved line carries. */
    generateAll: [] as { channel: CampaignChannelId; text: string; style?: StyleCheck }[],
  };

  const provenance = (channel: CampaignChannelId, instruction?: string): AssetProvenance => ({
    briefVersion: 1,
    tool: campaignChannels[channel].tool,
    promptVersion: `${campaignChannels[channel].tool}@1a2b3c4d`,
    model: 'gem-test-model',
    generationId: `gen-${++generations}`,
    ...(instruction ? { instruction } : {}),
  });

  function addVersion(
    channel: CampaignChannelId,
    kind: AssetVersionKind,
    text: string,
    author: CampaignPerson,
    options: { current: boolean; provenance?: AssetProvenance } = { current: true },
  ): number {
    const asset = (state.assets[channel] ??= {
      status: 'draft',
      current: 0,
      versions: [],
      generating: null,
      lastError: null,
      utm: { source: null, medium: null, content: null },
    });
    const version = (asset.versions[0]?.version ?? 0) + 1;
    asset.versions.unshift({
      version,
      kind,
      text,
      author,
      createdAt: AT,
      provenance: options.provenance ?? null,
    });
    if (options.current) {
      asset.current = version;
      asset.status = 'draft';
    }
    return version;
  }

  function shown(channel: CampaignChannelId): CampaignAsset {
    const asset = state.assets[channel]!;
    const current = asset.versions.find((v) => v.version === asset.current);
    const madeFrom = asset.versions.find((v) => v.kind === 'generated' && v.version <= asset.current);
    return {
      channel,
      status: asset.status,
      version: asset.current,
      text: current?.text ?? '',
      updatedAt: AT,
      provenance: madeFrom?.provenance ?? null,
      // As the server: the generation's check while the text is still the generated one.
      ...(current?.kind === 'generated' && asset.styles?.[current.version]
        ? { style: asset.styles[current.version] }
        : {}),
      generating: asset.generating,
      lastError: asset.lastError,
      utm: assetUtmOf(channel, asset.utm),
    };
  }

  const details = (channel: CampaignChannelId): CampaignAssetDetails => ({
    ...shown(channel),
    versions: state.assets[channel]!.versions,
  });

  /** An asset with these texts as its versions, oldest first: the first generated, the rest edits. */
  function seed(
    channel: CampaignChannelId,
    texts: string[],
    status: AssetStatus = 'draft',
    /** The style check stored with the first (generated) version. */
    style?: StyleCheck,
  ) {
    texts.forEach((text, index) =>
      addVersion(channel, index === 0 ? 'generated' : 'edited', text, index === 0 ? ME : COLLEAGUE, {
        current: true,
        ...(index === 0 ? { provenance: provenance(channel) } : {}),
      }),
    );
    state.assets[channel]!.status = status;
    if (style) state.assets[channel]!.styles = { [state.assets[channel]!.versions.at(-1)!.version]: style };
  }

  /** A colleague saves the asset's next version (what a 409 is about). */
  function saveAsSomeoneElse(channel: CampaignChannelId, text: string) {
    addVersion(channel, 'edited', text, COLLEAGUE);
  }

  /** A colleague holds the asset's lease: the list says so, and a generation is a 409 naming them. */
  function generatingAsSomeoneElse(channel: CampaignChannelId) {
    state.assets[channel] ??= {
      status: 'draft',
      current: 0,
      versions: [],
      generating: null,
      lastError: null,
      utm: { source: null, medium: null, content: null },
    };
    state.assets[channel]!.generating = { by: COLLEAGUE, until: '2026-03-14T10:35:00.000Z' };
  }

  async function generate(channel: CampaignChannelId, raw: string, res: ServerResponse) {
    const body = JSON.parse(raw || '{}') as GenerateAssetRequest;
    state.generated.push({ channel, body });
    const { label } = campaignChannels[channel];
    const held = state.assets[channel]?.generating;
    if (held) {
      return json(
        res,
        409,
        refusal(
          'conflict',
          `${held.by.name} is generating the ${label} right now. Wait for it to finish, then try again.`,
        ),
      );
    }
    if (body.instruction && !(state.assets[channel]?.current ?? 0)) {
      return json(
        res,
        400,
        refusal('validation_failed', 'Some fields are not valid.', [
          { path: 'body.instruction', message: 'There is no text to change yet: generate it first.' },
        ]),
      );
    }
    const reply: AssetReply = state.replies.shift() ?? {
      kind: 'stream',
      events: [...deltas(`${label}: tekst testowy.`), final(`${label}: tekst testowy.`)],
    };
    if (reply.kind === 'error') {
      return json(res, reply.status, refusal(reply.code, reply.message, reply.issues));
    }
    res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
    res.flushHeaders();
    for (const item of reply.events) {
      if ('until' in item) {
        await item.until;
        continue;
      }
      if (res.destroyed) return;
      if ('type' in item && item.type === 'final') {
        // Saved before the final event goes out, as the server does.
        const text = (item.output.copy ?? item.output.text).trim();
        if (text) {
          addVersion(channel, 'generated', text, ME, {
            current: true,
            provenance: {
              ...provenance(channel, body.instruction),
              ...(item.output.demo ? { model: 'demo' } : {}),
            },
          });
        }
      }
      res.write(`${'raw' in item ? item.raw : JSON.stringify(item)}\n`);
    }
    res.end();
  }

  beforeEach(() => {
    Object.assign(state, {
      assets: {},
      replies: [],
      generated: [],
      saves: [],
      restores: [],
      statuses: [],
      utms: [],
      generateAll: [],
    });

    server.on('POST', campaignGenerateAllPath(campaignId), (_req, _raw, res) => {
      // Each scripted asset written and saved in turn, its saved line with its check.
      const send = (event: GenerateAllEvent) => res.write(`${JSON.stringify(event)}\n`);
      res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
      send({ type: 'started', channels: state.generateAll.map((a) => a.channel), busy: [] });
      for (const { channel, text, style } of state.generateAll) {
        send({ type: 'delta', channel, text });
        const version = addVersion(channel, 'generated', text, ME, {
          current: true,
          provenance: provenance(channel),
        });
        if (style) state.assets[channel]!.styles = { ...state.assets[channel]!.styles, [version]: style };
        send({ type: 'saved', channel, version, ...(style ? { style } : {}) });
      }
      send({ type: 'end', saved: state.generateAll.length, failed: 0 });
      res.end();
    });

    server.on('GET', campaignAssetsPath(campaignId), (_req, _raw, res) =>
      json(res, 200, {
        assets: campaignChannelIds.filter((id) => state.assets[id]).map((id) => shown(id)),
      }),
    );

    for (const channel of campaignChannelIds) {
      const path = campaignAssetPath(campaignId, channel);
      const { label, tool } = campaignChannels[channel];
      const missing = (res: ServerResponse) =>
        json(res, 404, refusal('not_found', `This campaign has no ${label} yet.`));
      const exists = () => (state.assets[channel]?.versions.length ?? 0) > 0;

      server.on('GET', path, (_req, _raw, res) =>
        exists() ? json(res, 200, details(channel)) : missing(res),
      );

      server.on('GET', `${path}/inputs`, (_req, _raw, res) =>
        json(res, 200, { tool, input: briefInputs[tool] }),
      );

      server.on('POST', `${path}/generate`, (_req, raw, res) => generate(channel, raw, res));

      server.on('PUT', path, (_req, raw, res) => {
        const { text, baseVersion } = JSON.parse(raw) as { text: string; baseVersion: number };
        state.saves.push({ channel, text, baseVersion });
        const tooLong = tooLongForChannel(channel, text);
        if (tooLong) {
          return json(
            res,
            400,
            refusal('validation_failed', 'Some fields are not valid.', [
              { path: 'body.text', message: tooLong },
            ]),
          );
        }
        if (!exists()) return missing(res);
        const asset = state.assets[channel]!;
        if (asset.current !== baseVersion) {
          const kept = addVersion(channel, 'conflict', text, ME, { current: false });
          return json(
            res,
            409,
            refusal(
              'conflict',
              `Someone changed the ${label} after you opened it (now version ${asset.current}). Your text is kept as version ${kept}: compare the two, then keep one.`,
            ),
          );
        }
        addVersion(channel, 'edited', text, ME);
        return json(res, 200, details(channel));
      });

      server.on('PATCH', path, (_req, raw, res) => {
        const parsed = updateAssetRequestSchema.safeParse(JSON.parse(raw));
        if (!parsed.success) {
          const issues = parsed.error.issues.map((issue) => ({
            path: ['body', ...issue.path].join('.'),
            message: issue.message,
          }));
          return json(res, 400, refusal('validation_failed', 'Some fields are not valid.', issues));
        }
        const { status, utm } = parsed.data;
        if (status) state.statuses.push({ channel, status });
        if (utm !== undefined) state.utms.push({ channel, utm });
        if (!exists()) return missing(res);
        if (status) state.assets[channel]!.status = status;
        if (utm !== undefined) {
          state.assets[channel]!.utm = utm
            ? { source: utm.source, medium: utm.medium, content: utm.content }
            : { source: null, medium: null, content: null };
        }
        return json(res, 200, details(channel));
      });

      server.on('POST', `${path}/restore`, (_req, raw, res) => {
        const { version } = JSON.parse(raw) as { version: number };
        state.restores.push({ channel, version });
        if (!exists()) return missing(res);
        const old = state.assets[channel]!.versions.find((v) => v.version === version);
        if (!old) {
          return json(
            res,
            400,
            refusal('validation_failed', 'Some fields are not valid.', [
              { path: 'body.version', message: `The ${label} has no version ${version}.` },
            ]),
          );
        }
        addVersion(channel, 'restored', old.text, ME);
        return json(res, 200, details(channel));
      });
    }
  });

  return {
    state,
    seed,
    saveAsSomeoneElse,
    generatingAsSomeoneElse,
    /** Queues the next generations' answers. */
    reply: (...replies: AssetReply[]) => state.replies.push(...replies),
    presets: assetInstructionPresets,
  };
}
