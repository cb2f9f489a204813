import { plausibleStructuredReply } from './brief-replies';
import type { RecordedRequest, ScriptedReply } from './scripted-replies';

/**
 * Plausible Polish answers for trying GEM's AI tools locally against the test server: the
 * reply is picked by what the prompt asks for (the tools' prompts are GEM's own), so each tool
 * shows an answer of the right shape and within its limits.
 */

export const polishReplies = {
  paidAds: [
    '## Analiza',
    '',
    '- **Grupa docelowa:** członkowie zarządów i dyrektorzy finansowi średnich firm.',
    '- **Kluczowy przekaz:** decyzje oparte na danych są szybsze i bezpieczniejsze.',
    '- **Korzyść:** krótsze raportowanie i lepsza kontrola ryzyka.',
    '- **Wezwanie do działania:** pobranie bezpłatnego raportu.',
    '',
    '## Tekst reklamy',
    '',
    '📊 Decyzje oparte na danych, nie na przeczuciach. Sprawdź, jak liderzy rynku skracają raportowanie o połowę i lepiej panują nad ryzykiem. Pobierz bezpłatny raport i zobacz, od czego zacząć w Twojej firmie. 👉',
  ].join('\n'),
  summary:
    'Dokument omawia wpływ cyfryzacji na polskie firmy średniej wielkości. Najważniejsze wnioski: ' +
    'inwestycje w analitykę danych skracają czas podejmowania decyzji, a automatyzacja raportowania ' +
    'uwalnia zespoły finansowe od powtarzalnej pracy. Autorzy zalecają zacząć od jednego procesu ' +
    'i mierzyć efekty co kwartał.',
  post: [
    'Dane zmieniają sposób, w jaki podejmujemy decyzje. 📈',
    '',
    'W rozmowach z zarządami słyszę to samo pytanie: od czego zacząć? Moja odpowiedź jest prosta – od jednego procesu, który dziś zabiera najwięcej czasu. Automatyzacja raportowania pozwala zespołom skupić się na analizie, a nie na przepisywaniu liczb.',
    '',
    'Najlepsze firmy, z którymi pracujemy, mierzą efekty co kwartał i odważnie skalują to, co działa.',
    '',
    'A od czego Wy zaczęliście cyfrową zmianę? Chętnie poznam Wasze doświadczenia.',
    '',
    '#transformacjacyfrowa #przywództwo #dane',
  ].join('\n'),
  teaser:
    'Czy Twoja firma podejmuje decyzje szybciej niż konkurencja? Nasz najnowszy raport pokazuje, ' +
    'jak liderzy rynku skracają raportowanie o połowę – i od czego warto zacząć już w tym kwartale. ' +
    'Przeczytaj całość i sprawdź, gdzie jesteś na tej drodze.',
  article: [
    '**Dane, które przyspieszają decyzje**',
    '',
    'Polskie firmy coraz częściej sięgają po analitykę danych. Dzięki automatyzacji raportowania ' +
      'zarządy dostają wyniki w kilka godzin zamiast tygodni. Najlepsze efekty daje start od ' +
      'jednego procesu i regularny pomiar rezultatów. Zacznij od małego kroku – efekty przyjdą szybko.',
  ].join('\n'),
  generic:
    'Oto propozycja tekstu: Dane, które przyspieszają decyzje. Sprawdź, jak liderzy rynku ' +
    'skracają raportowanie o połowę i lepiej panują nad ryzykiem.',
} as const;

/**
 * Picks the reply by the words of the system prompt (or of the first message); a request for
 * structured output gets an object (the brief creator's stand-in, or one made up from its schema).
 */
export function plausiblePolishReply(request: RecordedRequest): ScriptedReply {
  if (request.structured) return plausibleStructuredReply(request);
  const messages = request.body.messages ?? [];
  const system = messages.find((m) => m.role === 'system')?.content ?? messages[0]?.content ?? '';
  const asks = (pattern: RegExp) => pattern.test(String(system));
  // Most telling words first: the summarizer's prompt mentions posts, the teaser's summaries.
  const text = asks(/tekst reklamy/i)
    ? polishReplies.paidAds
    : asks(/teaser/i)
      ? polishReplies.teaser
      : asks(/streszczasz|streść/i)
        ? polishReplies.summary
        : asks(/posty? do mediów|\bpost\b/i)
          ? polishReplies.post
          : asks(/artyku/i)
            ? polishReplies.article
            : polishReplies.generic;
  return { kind: 'text', text };
}
