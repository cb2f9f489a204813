import {
  BRAND_PROFILE_BODY_LIMIT,
  type BrandProfileResponse,
  type BrandProfileSave,
  type BrandVersion,
  type BrandVersionsResponse,
} from '@gem/contracts/brand-voice';
import { AppError } from '../../lib/app-error';
import { recordAudit } from '../../lib/audit';
import type { AdminDeps } from './admin.deps';
import type { AdminActor } from './admin-allowances.service';
import { SAMPLE_BRAND_NOTE, sampleBrandProfile } from './admin-brand-voice.sample';

/**
 * The administrators' brand profile (issue 31): the version in force with its forms, saving a
 * new version (refused when someone saved another since the editor's), every version and one
 * to compare. The versions and their forms are lib/brand-voice's; this adds the audit entry
 * and, with the demo accounts on, the demo's sample profile.
 */

/** The scheduler task that saves the sample profile while there is none. */
export const BRAND_SAMPLE_TASK = 'admin.brand-voice-sample';
const HOUR = 60 * 60 * 1000;

export function createAdminBrandVoice({ brandVoice, config, scheduler, log }: AdminDeps) {
  const service = {
    /**
     * The largest save request taken, in bytes: a full profile (1,000 terms with their reasons)
     * is larger than most requests, so the save has its own limit, never below the app's.
     */
    bodyLimit: Math.max(config.bodyLimitBytes, BRAND_PROFILE_BODY_LIMIT),

    /** The version in force with its forms, or null when none is saved. */
    async current(): Promise<BrandProfileResponse> {
      return { current: await brandVoice.version('current') };
    },

    /**
     * Saves the profile as the next version, in force at once on this instance (within 30 s on
     * the others), and audits it. A save on a replaced version is the brand voice's 409.
     */
    async save(request: BrandProfileSave, actor: AdminActor | null): Promise<BrandProfileResponse> {
      const saved = await brandVoice.save({
        profile: request.profile,
        note: request.note,
        basedOn: request.basedOn,
        userId: actor?.userId ?? null,
        // In the version's own transaction: no version without its entry, nor an entry without it.
        record: (tx, version) =>
          recordAudit(tx, {
            action: 'brand-voice.saved',
            actor: actor ? { userId: actor.userId, email: actor.email } : null,
            target: `brand profile version ${version}`,
            details: {
              version,
              basedOn: request.basedOn,
              note: request.note || null,
              counts: {
                banned: request.profile.banned.length,
                preferred: request.profile.preferred.length,
                names: request.profile.names.length,
                disclaimers: request.profile.disclaimers.length,
              },
            },
            ip: actor?.ip ?? null,
          }),
      });
      return { current: await brandVoice.version(saved.version) };
    },

    async versions(): Promise<BrandVersionsResponse> {
      return { items: await brandVoice.versions() };
    },

    /** One version with its profile and forms; a 404 saying so when there is none. */
    async version(version: number): Promise<BrandVersion> {
      const found = await brandVoice.version(version);
      if (!found) {
        throw new AppError(
          404,
          'not_found',
          `There is no version ${version} of the brand profile. The list of versions shows every one saved.`,
        );
      }
      return found;
    },

    /**
     * The demo's profile as version 1 when none exists. Two instances may both try: the
     * database keeps one version 1 and the other save is a 409, which is the same outcome.
     */
    async seedSample(): Promise<boolean> {
      if ((await brandVoice.version('current')) !== null) return false;
      try {
        await service.save({ profile: sampleBrandProfile, note: SAMPLE_BRAND_NOTE, basedOn: null }, null);
        return true;
      } catch (err) {
        if (err instanceof AppError && err.statusCode === 409) return false;
        throw err;
      }
    },
  };

  // The demo's sample data goes with the demo accounts (never in production, never on a server
  // other machines reach): the first start of the embedded defaults has a working brand voice.
  if (config.auth.demoAccounts) {
    scheduler.every({
      name: BRAND_SAMPLE_TASK,
      intervalMs: 24 * HOUR,
      leaseMs: 5 * 60 * 1000,
      async run() {
        if (await service.seedSample()) log.info({ version: 1 }, 'brand voice: sample profile saved');
      },
    });
  }

  return service;
}

export type AdminBrandVoice = ReturnType<typeof createAdminBrandVoice>;
