import { styleCheckSchema, type StyleCheck } from '@gem/contracts/brand-voice';
import { briefDataSchema, type BriefData } from '@gem/contracts/brief-creator';
import {
  assetProvenanceSchema,
  assetStatusLabels,
  assetUtmOf,
  tooLongForChannel,
  type AssetProvenance,
  type AssetVersion,
  type AssetVersionKind,
  type CampaignAsset,
  type CampaignAssetDetails,
  type GenerateAllEvent,
  type GenerateAssetRequest,
  type UpdateAssetRequest,
} from '@gem/contracts/campaign-assets';
import { campaignChannels, channelsOfBrief, type CampaignChannelId } from '@gem/contracts/campaign-channels';
import {
  writingToolInputSchemas,
  type GenerationEvent,
  type GenerationOutput,
} from '@gem/contracts/writing-tools';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  campaignAssets,
  campaignAssetVersions,
  campaignBriefVersions,
  generations,
} from '../../db/schema/index';
import { toAppError } from '../../lib/ai/ai-errors';
import { AppError } from '../../lib/app-error';
import type { Log } from '../../lib/logger';
import { briefToInputs, type BriefSource, type ToolInputs } from './brief-to-inputs';
import { rowsOf } from './campaign-sources.service';
import { campaignFor, type CampaignRow } from './campaigns.access';
import { peopleById, recordActivity, someone } from './campaigns.records';

/**
 * A campaign's assets (issue 29): made by the channel's writing tool through the writing tools'
 * own pipeline (prompts, limits, recording, streaming; there is no second generation path),
 * edited by hand, moved through Draft → In review → Approved. Every generation and every save is
 * a version. A save made on an older version than the newest is kept as a version of its own and
 * answered 409, so two editors never overwrite each other. While an asset is generated, its row
 * holds a lease (who, until when) in the database: no second generation of it starts on any
 * instance, and every page reads the progress from there.
 */

/** How long a generation may hold its asset before another may start (its instance died). */
export const GENERATION_LEASE_MS = 5 * 60_000;

/** Kept as the asset's last error when the model answered with nothing. */
const EMPTY_ANSWER = 'The AI wrote nothing this time. Try again.';

/** A failure before a generation's stream began, as 'Generate all' and the asset's last error say it. */
function failureOf(err: unknown): { code: string; message: string } {
  const known = toAppError(err);
  return known instanceof AppError
    ? { code: known.code, message: known.message }
    : { code: 'internal_error', message: 'The generation failed on our side. Please try again.' };
}

/** One asset's part of 'Generate all': its events, or, when it never starts, its lease given back. */
type QueuedRun = { start: () => AsyncGenerator<GenerateAllEvent>; cancel: () => Promise<void> };

/**
 * The events of several runs as one stream, at most `concurrent` running at once (a run starts
 * when one before it ends), `started` first and an `end` with the counts last. Each run's events
 * keep their order. Once `signal` fires (the reader left), no further run starts; when the reader
 * stops reading, every run still going is stopped too.
 */
async function* mergeRuns(
  runs: QueuedRun[],
  { concurrent, started, signal }: { concurrent: number; started: GenerateAllEvent; signal: AbortSignal },
): AsyncGenerator<GenerateAllEvent> {
  type Running = AsyncGenerator<GenerateAllEvent>;
  yield started;
  const counts = { saved: 0, failed: 0 };
  const waiting = [...runs];
  const running = new Map<Running, Promise<[Running, IteratorResult<GenerateAllEvent>]>>();
  const pull = (it: Running) =>
    running.set(
      it,
      it.next().then((r): [Running, typeof r] => [it, r]),
    );
  const startNext = async () => {
    const next = waiting.shift();
    if (!next) return;
    if (signal.aborted) await next.cancel();
    else pull(next.start());
  };
  for (let i = 0; i < concurrent; i += 1) await startNext();
  try {
    while (running.size > 0 || waiting.length > 0) {
      if (running.size === 0) {
        await startNext();
        continue;
      }
      const [it, result] = await Promise.race(running.values());
      running.delete(it);
      if (result.done) {
        await startNext();
        continue;
      }
      if (result.value.type === 'saved') counts.saved += 1;
      if (result.value.type === 'failed') counts.failed += 1;
      yield result.value;
      pull(it);
    }
  } finally {
    await Promise.all([...running.keys()].map((it) => it.return(undefined)));
    for (const next of waiting.splice(0)) await next.cancel();
  }
  yield { type: 'end', ...counts };
}

/** The asset's text from a tool's output: the ad copy for paid ads (its analysis is not the asset). */
const assetText = (output: GenerationOutput) => (output.copy ?? output.text).trim();

/**
 * A generation's style check, for the asset's text: the check ran on what the tool wrote (for
 * paid ads, the copy), the asset keeps it trimmed, so each finding moves by what was trimmed at
 * the start; null when the text is not the one that was checked (edited since) or the check no
 * longer reads (an old row).
 */
export function styleForAsset(style: unknown, written: string, text: string): StyleCheck | null {
  const parsed = styleCheckSchema.safeParse(style);
  if (!parsed.success || written.trim() !== text) return null;
  const lead = written.length - written.trimStart().length;
  const findings = parsed.data.findings.flatMap((finding) => {
    const start = Math.min(Math.max(finding.start - lead, 0), text.length);
    const end = Math.min(Math.max(finding.end - lead, start), text.length);
    return text.slice(start, end) === finding.text ? [{ ...finding, start, end }] : [];
  });
  return { ...parsed.data, findings };
}

/** The text the style check of a stored output ran on (for paid ads, the copy), or null. */
function writtenOf(output: unknown): string | null {
  if (typeof output !== 'object' || output === null) return null;
  const { copy, text } = output as { copy?: unknown; text?: unknown };
  const written = typeof copy === 'string' ? copy : text;
  return typeof written === 'string' ? written : null;
}

type AssetRow = typeof campaignAssets.$inferSelect;
type VersionRow = typeof campaignAssetVersions.$inferSelect;

/**
 * The writing tools' generation, as createServices hands it over (modules never import each
 * other): the tool's own call from its inputs, or its regeneration of the current text with an
 * instruction; the events of its stream and the version of the prompt it sent.
 */
export type ToolWriter = (request: {
  userId: string;
  tool: ToolInputs['tool'];
  input: ToolInputs['input'];
  /** Added to the input as the generation's record keeps it. */
  recorded: Record<string, unknown>;
  revise?: { current: string; instruction: string } | undefined;
  /** The asset's channel: the brand profile's disclaimers and limits for it, and its style check. */
  target: CampaignChannelId;
  signal: AbortSignal;
  log: Pick<Log, 'error' | 'warn' | 'info'>;
}) => Promise<{ events: AsyncIterable<GenerationEvent>; promptVersion: string }>;

export type CampaignAssetsDeps = {
  db: Db;
  write: ToolWriter;
  /** How many of a user's AI calls may run at once: 'Generate all' runs that many. */
  concurrent: number;
};

export function createCampaignAssets({ db, write, concurrent }: CampaignAssetsDeps) {
  async function briefOf(campaign: CampaignRow): Promise<BriefData> {
    const [row] = await db
      .select({ briefData: campaignBriefVersions.briefData })
      .from(campaignBriefVersions)
      .where(
        and(
          eq(campaignBriefVersions.campaignId, campaign.id),
          eq(campaignBriefVersions.version, campaign.briefVersion),
        ),
      );
    return briefDataSchema.parse(row?.briefData);
  }

  async function assetRow(campaignId: string, channel: CampaignChannelId): Promise<AssetRow | undefined> {
    const [row] = await db
      .select()
      .from(campaignAssets)
      .where(and(eq(campaignAssets.campaignId, campaignId), eq(campaignAssets.channel, channel)));
    return row;
  }

  async function versionRow(assetId: string, version: number): Promise<VersionRow | undefined> {
    const [row] = await db
      .select()
      .from(campaignAssetVersions)
      .where(and(eq(campaignAssetVersions.assetId, assetId), eq(campaignAssetVersions.version, version)));
    return row;
  }

  const provenanceOf = (row: VersionRow | undefined): AssetProvenance | null => {
    const parsed = assetProvenanceSchema.safeParse(row?.provenance);
    return parsed.success ? parsed.data : null;
  };

  /** The newest generated version at or before `version`: what the current text was made from. */
  async function madeFrom(assetId: string, version: number): Promise<AssetProvenance | null> {
    const [row] = await db
      .select()
      .from(campaignAssetVersions)
      .where(
        and(
          eq(campaignAssetVersions.assetId, assetId),
          eq(campaignAssetVersions.kind, 'generated'),
          sql`${campaignAssetVersions.version} <= ${version}`,
        ),
      )
      .orderBy(desc(campaignAssetVersions.version))
      .limit(1);
    return provenanceOf(row);
  }

  const utmOf = (row: AssetRow) =>
    assetUtmOf(row.channel as CampaignChannelId, {
      source: row.utmSource,
      medium: row.utmMedium,
      content: row.utmContent,
    });

  /** The style check of the generation the text was made from, while the text is still its. */
  async function styleOf(provenance: AssetProvenance | null, text: string): Promise<StyleCheck | null> {
    if (!provenance || text === '' || !/^[0-9a-f-]{36}$/i.test(provenance.generationId)) return null;
    const [record] = await db
      .select({ output: generations.output, style: generations.style })
      .from(generations)
      .where(eq(generations.id, provenance.generationId));
    const written = writtenOf(record?.output);
    return record && written !== null ? styleForAsset(record.style, written, text) : null;
  }

  async function shown(row: AssetRow): Promise<CampaignAsset> {
    const current = row.currentVersion > 0 ? await versionRow(row.id, row.currentVersion) : undefined;
    const live = row.generatingUntil !== null && row.generatingUntil > new Date();
    const known = await peopleById(db, live ? [row.generatingBy] : []);
    const provenance = row.currentVersion > 0 ? await madeFrom(row.id, row.currentVersion) : null;
    const style = await styleOf(provenance, current?.text ?? '');
    return {
      channel: row.channel as CampaignChannelId,
      status: row.status,
      version: row.currentVersion,
      text: current?.text ?? '',
      updatedAt: row.updatedAt.toISOString(),
      provenance,
      ...(style ? { style } : {}),
      generating: live
        ? { by: someone(row.generatingBy, known), until: row.generatingUntil!.toISOString() }
        : null,
      lastError: row.lastError,
      utm: utmOf(row),
    };
  }

  async function details(row: AssetRow): Promise<CampaignAssetDetails> {
    const rows = await db
      .select()
      .from(campaignAssetVersions)
      .where(eq(campaignAssetVersions.assetId, row.id))
      .orderBy(desc(campaignAssetVersions.version));
    const known = await peopleById(
      db,
      rows.map((version) => version.authorId),
    );
    const versions: AssetVersion[] = rows.map((version) => ({
      version: version.version,
      kind: version.kind,
      text: version.text,
      author: someone(version.authorId, known),
      createdAt: version.createdAt.toISOString(),
      provenance: provenanceOf(version),
    }));
    return { ...(await shown(row)), versions };
  }

  async function existing(campaignId: string, channel: CampaignChannelId): Promise<AssetRow> {
    const row = await assetRow(campaignId, channel);
    if (!row || row.lastVersion === 0) {
      throw new AppError(404, 'not_found', `This campaign has no ${campaignChannels[channel].label} yet.`);
    }
    return row;
  }

  /**
   * Adds a version in one transaction with the asset's numbers and the activity. `current`: it
   * becomes the text everyone works on (a conflicting save does not).
   */
  async function addVersion(
    asset: AssetRow,
    userId: string,
    version: { kind: AssetVersionKind; text: string; provenance?: AssetProvenance; current: boolean },
    activity: {
      action: 'asset-generated' | 'asset-saved' | 'asset-conflict' | 'asset-restored';
      detail: string;
    },
  ): Promise<{ row: AssetRow; number: number }> {
    return db.transaction(async (tx) => {
      const [row] = await tx
        .update(campaignAssets)
        .set({
          lastVersion: sql`${campaignAssets.lastVersion} + 1`,
          ...(version.current
            ? { currentVersion: sql`${campaignAssets.lastVersion} + 1`, status: 'draft' as const }
            : {}),
          updatedAt: sql`now()`,
        })
        .where(eq(campaignAssets.id, asset.id))
        .returning();
      const number = row!.lastVersion;
      await tx.insert(campaignAssetVersions).values({
        assetId: asset.id,
        version: number,
        kind: version.kind,
        text: version.text,
        authorId: userId,
        provenance: version.provenance ?? null,
      });
      await recordActivity(
        tx,
        asset.campaignId,
        userId,
        activity.action,
        `${activity.detail} (version ${number})`,
      );
      return { row: row!, number };
    });
  }

  /** The tool's inputs: the page's, checked by the tool's own schema, or the brief's. */
  function inputsFor(
    channel: CampaignChannelId,
    brief: BriefData,
    sources: readonly BriefSource[],
    sent?: Record<string, unknown>,
  ): ToolInputs {
    const fromBrief = briefToInputs(brief, channel, sources);
    if (!sent) return fromBrief;
    const parsed = writingToolInputSchemas[fromBrief.tool].safeParse(sent);
    if (!parsed.success) {
      throw AppError.invalid(
        parsed.error.issues.map((issue) => ({
          path: ['body', 'input', ...issue.path.map(String)].join('.'),
          message: issue.message,
        })),
      );
    }
    return { tool: fromBrief.tool, input: parsed.data } as ToolInputs;
  }

  /** Takes the asset's lease for a generation (creating its row), or says who holds it (409). */
  async function claim(campaignId: string, channel: CampaignChannelId, userId: string): Promise<AssetRow> {
    await db.insert(campaignAssets).values({ campaignId, channel }).onConflictDoNothing();
    const [row] = await db
      .update(campaignAssets)
      .set({
        generatingBy: userId,
        generatingUntil: sql`now() + ${`${GENERATION_LEASE_MS} milliseconds`}::interval`,
      })
      .where(
        and(
          eq(campaignAssets.campaignId, campaignId),
          eq(campaignAssets.channel, channel),
          or(isNull(campaignAssets.generatingUntil), lt(campaignAssets.generatingUntil, sql`now()`)),
        ),
      )
      .returning();
    if (row) return row;
    const held = await assetRow(campaignId, channel);
    const known = await peopleById(db, [held?.generatingBy ?? null]);
    throw new AppError(
      409,
      'conflict',
      `${someone(held?.generatingBy ?? null, known).name} is generating the ${campaignChannels[channel].label} right now. Wait for it to finish, then try again.`,
    );
  }

  async function release(assetId: string, lastError: string | null) {
    await db
      .update(campaignAssets)
      .set({ generatingBy: null, generatingUntil: null, lastError })
      .where(eq(campaignAssets.id, assetId));
  }

  type Step = { event: GenerationEvent; savedVersion?: number };

  /**
   * Runs a generation of a claimed asset: the writing tools' stream, the answer saved as a
   * version before its final event is passed on; the lease freed at the end, a failure kept as
   * the asset's last error. Throws (the lease freed) when the call cannot start.
   */
  async function run({
    userId,
    campaign,
    asset,
    tool,
    input,
    sources,
    instruction,
    current,
    context,
  }: {
    userId: string;
    campaign: CampaignRow;
    asset: AssetRow;
    tool: ToolInputs['tool'];
    input: ToolInputs['input'];
    /** The campaign's sources: those the input carries are listed with the text. */
    sources: readonly BriefSource[];
    instruction?: string | undefined;
    current: string | null;
    context: { signal: AbortSignal; log: Pick<Log, 'error' | 'warn' | 'info'> };
  }): Promise<AsyncIterable<Step>> {
    const channel = asset.channel as CampaignChannelId;
    let written: Awaited<ReturnType<ToolWriter>>;
    try {
      written = await write({
        userId,
        tool,
        input,
        recorded: {
          campaignId: campaign.id,
          channel,
          ...(instruction ? { instruction: instruction } : {}),
        },
        revise: current === null || !instruction ? undefined : { current, instruction },
        target: channel,
        signal: context.signal,
        log: context.log,
      });
    } catch (err) {
      await release(asset.id, failureOf(err).message);
      throw err;
    }
    const { events } = written;
    const sent = JSON.stringify(input);
    const drawnOn = sources
      .filter((source) => sent.includes(source.url))
      .map(({ title, url }) => ({ title, url }));
    const provenance = (generationId: string, model: string | null): AssetProvenance => ({
      briefVersion: campaign.briefVersion,
      tool,
      promptVersion: written.promptVersion,
      model,
      generationId,
      ...(instruction ? { instruction: instruction } : {}),
      sources: drawnOn,
    });
    const label = campaignChannels[channel].label;
    return (async function* assetEvents(): AsyncGenerator<Step> {
      let released = false;
      try {
        for await (const event of events) {
          if (event.type === 'error') {
            await release(asset.id, event.error.message);
            released = true;
          }
          if (event.type !== 'final') {
            yield { event };
            continue;
          }
          const [record] = await db
            .select({ model: generations.model })
            .from(generations)
            .where(eq(generations.id, event.generationId));
          const text = assetText(event.output);
          if (text === '') {
            // Nothing to keep: the page shows its empty result, the asset stays as it was.
            await release(asset.id, EMPTY_ANSWER);
            released = true;
            yield { event };
            continue;
          }
          const model = event.output.demo ? 'demo' : (record?.model ?? null);
          const { number } = await addVersion(
            asset,
            userId,
            {
              kind: 'generated',
              text,
              provenance: provenance(event.generationId, model),
              current: true,
            },
            {
              action: 'asset-generated',
              detail: instruction ? `${label} regenerated: ${instruction}` : `${label} generated`,
            },
          );
          await release(asset.id, null);
          released = true;
          yield { event, savedVersion: number };
        }
      } finally {
        if (!released) await release(asset.id, context.signal.aborted ? null : 'The generation stopped.');
      }
    })();
  }

  return {
    /** The campaign's assets that have a text or are being generated, in the channels' order. */
    async list(userId: string, campaignId: string): Promise<{ assets: CampaignAsset[] }> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      const rows = await db.select().from(campaignAssets).where(eq(campaignAssets.campaignId, campaign.id));
      const order = Object.keys(campaignChannels);
      rows.sort((a, b) => order.indexOf(a.channel) - order.indexOf(b.channel));
      return { assets: await Promise.all(rows.map(shown)) };
    },

    async get(userId: string, campaignId: string, channel: CampaignChannelId): Promise<CampaignAssetDetails> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      return details(await existing(campaign.id, channel));
    },

    /** What 'Generate from brief' would send: the channel's tool and its inputs from the brief. */
    async inputs(userId: string, campaignId: string, channel: CampaignChannelId): Promise<ToolInputs> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'read');
      return briefToInputs(await briefOf(campaign), channel, await rowsOf(db, campaign.id));
    },

    /**
     * Generates the channel's asset (or regenerates it with an instruction) through the writing
     * tools' pipeline, as a stream of its events; the text is saved as a version before the
     * final event, so the page that receives it finds it stored. Holds the asset's lease while it
     * runs; a failure is kept as the asset's last error.
     */
    async generate(
      userId: string,
      campaignId: string,
      channel: CampaignChannelId,
      request: GenerateAssetRequest,
      context: { signal: AbortSignal; log: Pick<Log, 'error' | 'warn' | 'info'> },
    ): Promise<AsyncIterable<GenerationEvent>> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const brief = await briefOf(campaign);
      const sources = await rowsOf(db, campaign.id);
      const { tool, input } = inputsFor(channel, brief, sources, request.input);
      let current: string | null = null;
      if (request.instruction) {
        const row = await assetRow(campaign.id, channel);
        const version =
          row && row.currentVersion > 0 ? await versionRow(row.id, row.currentVersion) : undefined;
        if (!version) {
          throw AppError.invalid([
            { path: 'body.instruction', message: 'There is no text to change yet: generate it first.' },
          ]);
        }
        current = version.text;
      }
      const asset = await claim(campaign.id, channel, userId);
      const steps = await run({
        sources,
        userId,
        campaign,
        asset,
        tool,
        input,
        instruction: request.instruction,
        current,
        context,
      });
      return (async function* events(): AsyncGenerator<GenerationEvent> {
        for await (const step of steps) yield step.event;
      })();
    },

    /**
     * 'Generate all': every asset the brief's channels call for, from the brief, at most
     * `concurrent` at a time (the user's AI limit), as one stream of their progress. Each holds
     * its lease from the start, so every page (on any instance) sees them queued; one that fails
     * does not stop the others, and one someone else is generating is left to them.
     */
    async generateAll(
      userId: string,
      campaignId: string,
      context: { signal: AbortSignal; log: Pick<Log, 'error' | 'warn' | 'info'> },
    ): Promise<AsyncIterable<GenerateAllEvent>> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const brief = await briefOf(campaign);
      const sources = await rowsOf(db, campaign.id);
      const channels = channelsOfBrief(brief.channels);
      if (channels.length === 0) {
        throw new AppError(
          400,
          'validation_failed',
          'The brief names no channel GEM writes for (LinkedIn, Facebook, X, Google Ads, Meta ads, e-mail, an article). Add one to the brief’s channels first.',
        );
      }
      const claimed: { channel: CampaignChannelId; asset: AssetRow }[] = [];
      const busy: CampaignChannelId[] = [];
      for (const channel of channels) {
        try {
          claimed.push({ channel, asset: await claim(campaign.id, channel, userId) });
        } catch (err) {
          if (err instanceof AppError && err.statusCode === 409) busy.push(channel);
          else throw err;
        }
      }
      /** One asset's events in the merged stream. */
      async function* one(channel: CampaignChannelId, asset: AssetRow): AsyncGenerator<GenerateAllEvent> {
        const { tool, input } = briefToInputs(brief, channel, sources);
        let steps: AsyncIterable<Step>;
        try {
          steps = await run({ userId, campaign, asset, tool, input, sources, current: null, context });
        } catch (err) {
          yield { type: 'failed', channel, error: failureOf(err) };
          return;
        }
        for await (const { event, savedVersion } of steps) {
          if (event.type === 'delta') yield { type: 'delta', channel, text: event.text };
          else if (event.type === 'restart') yield { type: 'restart', channel };
          else if (event.type === 'error') yield { type: 'failed', channel, error: event.error };
          else if (savedVersion !== undefined) {
            const written = event.output.copy ?? event.output.text;
            const style = event.style ? styleForAsset(event.style, written, written.trim()) : null;
            yield { type: 'saved', channel, version: savedVersion, ...(style ? { style } : {}) };
          } else yield { type: 'failed', channel, error: { code: 'empty_output', message: EMPTY_ANSWER } };
        }
      }
      return mergeRuns(
        claimed.map(({ channel, asset }) => ({
          start: () => one(channel, asset),
          cancel: () => release(asset.id, null),
        })),
        {
          concurrent,
          signal: context.signal,
          started: { type: 'started', channels: claimed.map((c) => c.channel), busy },
        },
      );
    },

    /**
     * A hand-edited text as the next version, made on `baseVersion`. When someone saved or
     * generated in between, the text is kept as a version of its own (not the current one) and
     * the answer is 409 naming both versions: nothing typed is lost, nothing is overwritten.
     */
    async save(
      userId: string,
      campaignId: string,
      channel: CampaignChannelId,
      { text, baseVersion }: { text: string; baseVersion: number },
    ): Promise<CampaignAssetDetails> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const tooLong = tooLongForChannel(channel, text);
      if (tooLong) throw AppError.invalid([{ path: 'body.text', message: tooLong }]);
      const asset = await existing(campaign.id, channel);
      const label = campaignChannels[channel].label;
      if (asset.currentVersion !== baseVersion) {
        // Someone saved or generated in between: keep this text too, and say so.
        const { number } = await addVersion(
          asset,
          userId,
          { kind: 'conflict', text, current: false },
          {
            action: 'asset-conflict',
            detail: `${label}: a save on version ${baseVersion} kept beside the newest`,
          },
        );
        throw new AppError(
          409,
          'conflict',
          `Someone changed the ${label} after you opened it (now version ${asset.currentVersion}). Your text is kept as version ${number}: compare the two, then keep one.`,
        );
      }
      const { row } = await addVersion(
        asset,
        userId,
        { kind: 'edited', text, current: true },
        { action: 'asset-saved', detail: `${label} edited` },
      );
      return details(row);
    },

    /** An old version's text as the newest (a version of its own), on any version. */
    async restore(
      userId: string,
      campaignId: string,
      channel: CampaignChannelId,
      version: number,
    ): Promise<CampaignAssetDetails> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const asset = await existing(campaign.id, channel);
      const old = await versionRow(asset.id, version);
      if (!old) {
        throw AppError.invalid([
          {
            path: 'body.version',
            message: `The ${campaignChannels[channel].label} has no version ${version}.`,
          },
        ]);
      }
      const { row } = await addVersion(
        asset,
        userId,
        { kind: 'restored', text: old.text, current: true },
        {
          action: 'asset-restored',
          detail: `${campaignChannels[channel].label}: version ${version} restored`,
        },
      );
      return details(row);
    },

    /**
     * Moves its status (Draft → In review → Approved, or back) and sets the UTM tags its links
     * carry (tags equal to the channel's own are stored as the channel's, so they follow it).
     */
    async update(
      userId: string,
      campaignId: string,
      channel: CampaignChannelId,
      change: UpdateAssetRequest,
    ): Promise<CampaignAssetDetails> {
      const { campaign } = await campaignFor(db, userId, campaignId, 'edit');
      const asset = await existing(campaign.id, channel);
      const label = campaignChannels[channel].label;
      const status =
        change.status !== undefined && change.status !== asset.status ? change.status : undefined;
      const own = campaignChannels[channel].utm;
      const utm =
        change.utm === undefined
          ? undefined
          : change.utm === null ||
              (change.utm.source === own.source &&
                change.utm.medium === own.medium &&
                change.utm.content === null)
            ? { utmSource: null, utmMedium: null, utmContent: null }
            : { utmSource: change.utm.source, utmMedium: change.utm.medium, utmContent: change.utm.content };
      const utmChanged =
        utm !== undefined &&
        (utm.utmSource !== asset.utmSource ||
          utm.utmMedium !== asset.utmMedium ||
          utm.utmContent !== asset.utmContent);
      if (status === undefined && !utmChanged) return details(asset);
      const row = await db.transaction(async (tx) => {
        const [updated] = await tx
          .update(campaignAssets)
          .set({ ...(status ? { status } : {}), ...(utmChanged ? utm : {}), updatedAt: sql`now()` })
          .where(eq(campaignAssets.id, asset.id))
          .returning();
        if (status) {
          await recordActivity(
            tx,
            campaign.id,
            userId,
            'asset-status-changed',
            `${label}: ${assetStatusLabels[asset.status]} → ${assetStatusLabels[status]}`,
          );
        }
        if (utmChanged) {
          const tags = utmOf(updated!);
          const content = tags.content ? `, utm_content=${tags.content}` : '';
          const whose = tags.edited ? '' : ' (the channel’s own)';
          await recordActivity(
            tx,
            campaign.id,
            userId,
            'asset-utm-set',
            `${label}: utm_source=${tags.source}, utm_medium=${tags.medium}${content}${whose}`,
          );
        }
        return updated!;
      });
      return details(row);
    },
  };
}

export type CampaignAssets = ReturnType<typeof createCampaignAssets>;
