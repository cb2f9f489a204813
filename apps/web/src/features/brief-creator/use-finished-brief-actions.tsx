import type { FinishedBriefsResponse } from '@gem/contracts/brief-creator';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ToastContentProps } from 'react-toastify/unstyled';
import { useNavigate } from 'react-router';

import { ApiError, NetworkError } from '@/lib/api-client';
import { toast } from '@/lib/toast';

import { createCampaign } from './api/create-campaign';
import { chatSessionsQueryOptions } from './api/get-chat-sessions';
import { finishedBriefQueryOptions } from './api/get-finished-brief';
import { finishedBriefListsKey } from './api/get-finished-briefs';
import {
  deleteFinishedBrief,
  restoreFinishedBrief,
  startFromFinishedBrief,
} from './api/finished-brief-actions';
import styles from './components/brief-lists.module.css';
import { NEW_CHAT } from './last-session';

/** What 'Start from this brief' hands the page along with the new session's URL. */
export type StartedFromState = { startedFrom: { sessionId: string; title: string } };

type BriefRef = { id: string; title: string };

/** What failed, and why in the server's (or the connection's) words. */
function reasonOf(error: unknown, failure: string): string {
  return error instanceof ApiError || error instanceof NetworkError ? `${failure} ${error.message}` : failure;
}

function UndoToast({
  text,
  onUndo,
  closeToast,
}: { text: string; onUndo: () => void } & Partial<ToastContentProps>) {
  return (
    <div className={styles.undoToast}>
      <span>{text}</span>
      <button
        type="button"
        className={styles.undoButton}
        onClick={() => {
          closeToast?.();
          onUndo();
        }}
      >
        Undo
      </button>
    </div>
  );
}

/** The chat's URL for a session, or for a new chat. */
export const chatLink = (sessionId: string = NEW_CHAT) =>
  `/tools/brief-creator?session=${encodeURIComponent(sessionId)}`;

/** A campaign's page (the campaigns feature's route). */
const campaignLink = (campaignId: string) => `/campaigns/${encodeURIComponent(campaignId)}`;

/**
 * What can be done with a finished brief (issue 27): delete it, with Undo in the toast that says
 * so (the server keeps who deleted it and when, and Undo clears that), start a new chat from its
 * data, and make a campaign of it (issue 29).
 */
export function useFinishedBriefActions() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [pending, setPending] = useState<string | null>(null);

  const refreshLists = () => queryClient.invalidateQueries({ queryKey: finishedBriefListsKey });

  async function restore(brief: BriefRef) {
    try {
      await restoreFinishedBrief(brief.id);
      toast.success(`“${brief.title}” is back in Finished Briefs.`);
    } catch (error) {
      toast.error(reasonOf(error, `“${brief.title}” could not be brought back.`));
    } finally {
      void refreshLists();
    }
  }

  /** Deletes the brief; `after` runs once it is gone (the details page goes back to the list). */
  async function remove(brief: BriefRef, after?: () => void) {
    setPending(brief.id);
    // Gone from the lists at once; back if the server refuses.
    queryClient.setQueriesData<FinishedBriefsResponse>({ queryKey: finishedBriefListsKey }, (old) =>
      old ? { briefs: old.briefs.filter((item) => item.id !== brief.id) } : old,
    );
    try {
      await deleteFinishedBrief(brief.id);
    } catch (error) {
      toast.error(reasonOf(error, `“${brief.title}” could not be deleted.`));
      void refreshLists();
      return;
    } finally {
      setPending(null);
    }
    queryClient.removeQueries({ queryKey: finishedBriefQueryOptions(brief.id).queryKey });
    void refreshLists();
    after?.();
    toast.info((props: ToastContentProps) => (
      <UndoToast {...props} text={`“${brief.title}” was deleted.`} onUndo={() => void restore(brief)} />
    ));
  }

  /** 'Start from this brief': a new session with the brief's data, opened in the chat. */
  async function startFrom(brief: BriefRef) {
    setPending(brief.id);
    try {
      const session = await startFromFinishedBrief(brief.id);
      void queryClient.invalidateQueries({ queryKey: chatSessionsQueryOptions.queryKey });
      const state: StartedFromState = { startedFrom: { sessionId: session.id, title: brief.title } };
      await navigate(chatLink(session.id), { state });
    } catch (error) {
      toast.error(reasonOf(error, `A chat could not be started from “${brief.title}”.`));
    } finally {
      setPending(null);
    }
  }

  /** 'Create campaign': the campaign made from the brief (a new one, or the user's earlier one), opened. */
  async function toCampaign(brief: BriefRef) {
    setPending(brief.id);
    try {
      const campaign = await createCampaign(brief.id);
      await navigate(campaignLink(campaign.id));
    } catch (error) {
      toast.error(reasonOf(error, `A campaign could not be made from “${brief.title}”.`));
    } finally {
      setPending(null);
    }
  }

  return { pending, remove, startFrom, toCampaign };
}
