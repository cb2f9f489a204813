import type { Prompt } from './generation-pipeline';

/**
 * Spec §7's generate-prompt call: the browser sends a finished prompt (the old pages did), so
 * only the frame is GEM's: answer in Polish, as the marketing team's assistant.
 */
export function generatePromptPrompt(userPrompt: string): Prompt {
  return {
    system: [
      'Jesteś asystentem działu marketingu firmy doradczej.',
      'Odpowiadasz wyłącznie po polsku, poprawną polszczyzną i rzeczowo.',
      'Wykonaj polecenie użytkownika i zwróć wyłącznie gotowy tekst, bez wstępu i komentarzy.',
    ].join('\n'),
    user: userPrompt,
  };
}
