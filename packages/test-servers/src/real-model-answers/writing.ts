/**
 * How real models answer GEM's writing prompts (issue 26): GPT-4o/4.1, Claude, Llama 3 70B and
 * Mistral, each with its habits: a preamble ("Oto…", "Here is…", "Jasne!"), the answer in a
 * code fence, other heading forms, bold for emphasis where plain text was asked for, notes on
 * the length at the end, offers of more help, several variants. Each case holds the answer as
 * the model sent it and what GEM must keep of it; an answer that obeys is kept as it is.
 *
 * `expected` is the clean text (for paid ads the copy, with `analysis` beside it); a case with
 * `note` also tells the user something GEM decided (e.g. that it kept the first of several
 * variants).
 */

export type ModelFamily = 'gpt-4o' | 'claude' | 'llama-3' | 'mistral';
export type WritingTool = 'article' | 'paid-ads' | 'summarize' | 'social-media-post' | 'teaser-generator';

export type WritingAnswerCase = {
  id: string;
  tool: WritingTool;
  family: ModelFamily;
  /** The answer as the model sends it. */
  answer: string;
  /** What GEM shows and copies: the text (article, summary, post, teaser) or the ad copy. */
  expected: string;
  /** Paid ads: the analysis GEM shows beside the copy. */
  analysis?: string;
  /** Words GEM adds to say what it did with the answer (several variants: the first is kept). */
  note?: string;
};

const article = [
  '**Dane, które przyspieszają decyzje**',
  '',
  'Polskie firmy coraz częściej sięgają po analitykę danych. Dzięki automatyzacji raportowania zarządy dostają wyniki w kilka godzin zamiast tygodni.',
  '',
  'Najlepsze efekty daje start od jednego procesu i regularny pomiar rezultatów. Zacznij od małego kroku – efekty przyjdą szybko.',
].join('\n');

const articleEn = [
  '**Data that speeds up decisions**',
  '',
  'Polish companies increasingly rely on data analytics. With automated reporting, boards get results in hours instead of weeks.',
  '',
  'The best results come from starting with one process and measuring outcomes regularly. Start small – the results will follow.',
].join('\n');

const adAnalysis = [
  '- **Grupa docelowa:** dyrektorzy finansowi średnich firm produkcyjnych.',
  '- **Kluczowy przekaz:** raportowanie ESG może być prostsze.',
  '- **Korzyść:** mniej pracy przy raportach i mniejsze ryzyko błędów.',
  '- **Wezwanie do działania:** zapis na webinar.',
].join('\n');

const adCopy =
  '📊 Raportowanie ESG bez nerwów? To możliwe. Zobacz, jak średnie firmy produkcyjne skracają przygotowanie raportu o połowę i ograniczają ryzyko błędów. Dołącz do bezpłatnego webinaru 18 marca i zadaj pytania ekspertom. 👉 Zapisz się już dziś!';

const summary =
  'Raport opisuje, jak średnie firmy produkcyjne przygotowują się do raportowania ESG. Większość z nich zaczyna od zebrania danych o emisjach i zużyciu energii. Największą trudnością jest rozproszenie danych w wielu systemach. Autorzy zalecają jednego właściciela procesu i kwartalny przegląd postępów.';

const post = [
  'Raportowanie ESG to nie formalność, tylko szansa na lepsze decyzje.',
  '',
  'W rozmowach z zarządami słyszę to samo pytanie: od czego zacząć? Od danych, które już macie – o energii, emisjach i dostawcach.',
  '',
  'Firmy, które wyznaczyły jednego właściciela procesu, idą najszybciej.',
  '',
  'Jak Wy podchodzicie do raportu ESG?',
  '',
  '#ESG #raportowanie #zrównoważonyrozwój',
].join('\n');

const teaser =
  'Czy raport ESG musi zabierać kwartał pracy? Nasz najnowszy przegląd pokazuje, jak średnie firmy produkcyjne skracają go o połowę – i od czego zacząć już teraz. Przeczytaj całość i sprawdź, gdzie jest Twoja firma.';

export const writingAnswers: WritingAnswerCase[] = [
  // Article
  { id: 'article-obeys', tool: 'article', family: 'gpt-4o', answer: article, expected: article },
  {
    id: 'article-preamble-and-count',
    tool: 'article',
    family: 'llama-3',
    answer: `Oto propozycja artykułu na bloga:\n\n${article}\n\n(Liczba znaków: 498)`,
    expected: article,
  },
  {
    id: 'article-fence-and-offer',
    tool: 'article',
    family: 'gpt-4o',
    answer: `Here is a short article based on the content:\n\n\`\`\`markdown\n${article}\n\`\`\`\n\nLet me know if you'd like any changes!`,
    expected: article,
  },
  {
    id: 'article-sure-and-rule',
    tool: 'article',
    family: 'claude',
    answer: `Jasne! Poniżej znajdziesz krótki artykuł.\n\n---\n\n${article}\n\n---\n\n*Długość: 412 znaków ze spacjami.*`,
    expected: article,
  },
  {
    id: 'article-english',
    tool: 'article',
    family: 'mistral',
    answer: `Sure! Here's the article:\n\n${articleEn}\n\n*Character count: 402*\n\nIf you'd like, I can also prepare a shorter version.`,
    expected: articleEn,
  },
  {
    id: 'article-opens-with-oto-as-its-first-sentence',
    tool: 'article',
    family: 'gpt-4o',
    answer:
      'Oto trzy powody, dla których raportowanie ESG się opłaca. Po pierwsze, porządkuje dane. Po drugie, ułatwia rozmowę z bankiem. Po trzecie, pokazuje ryzyka wcześniej.',
    expected:
      'Oto trzy powody, dla których raportowanie ESG się opłaca. Po pierwsze, porządkuje dane. Po drugie, ułatwia rozmowę z bankiem. Po trzecie, pokazuje ryzyka wcześniej.',
  },

  // Paid ads
  {
    id: 'ads-obeys',
    tool: 'paid-ads',
    family: 'gpt-4o',
    answer: `## Analiza\n\n${adAnalysis}\n\n## Tekst reklamy\n\n${adCopy}`,
    expected: adCopy,
    analysis: adAnalysis,
  },
  {
    id: 'ads-numbered-h3-with-parenthetical',
    tool: 'paid-ads',
    family: 'gpt-4o',
    answer: `Oto propozycja reklamy:\n\n### 1. Analiza\n\n${adAnalysis}\n\n### 2. Tekst reklamy (LinkedIn, 356 znaków)\n\n${adCopy}\n\n*Długość: 312 znaków*`,
    expected: adCopy,
    analysis: adAnalysis,
  },
  {
    id: 'ads-dash-version',
    tool: 'paid-ads',
    family: 'claude',
    answer: `## Analiza\n\n${adAnalysis}\n\n## Tekst reklamy – wersja na LinkedIn\n\n${adCopy}\n\n---\n\nDaj znać, jeśli chcesz wersję krótszą albo bardziej formalną.`,
    expected: adCopy,
    analysis: adAnalysis,
  },
  {
    id: 'ads-emoji-heading',
    tool: 'paid-ads',
    family: 'llama-3',
    answer: `## 🔍 Analiza\n\n${adAnalysis}\n\n## 📣 Tekst reklamy\n\n${adCopy}`,
    expected: adCopy,
    analysis: adAnalysis,
  },
  {
    id: 'ads-english-bold-headings',
    tool: 'paid-ads',
    family: 'mistral',
    answer: `**Analysis**\n\n${adAnalysis}\n\n**Ad Copy**\n\n${adCopy}\n\n(Character count: 268)`,
    expected: adCopy,
    analysis: adAnalysis,
  },
  {
    id: 'ads-three-variants',
    tool: 'paid-ads',
    family: 'llama-3',
    answer: `## Analiza\n\n${adAnalysis}\n\n## Tekst reklamy\n\n**Wariant 1:** ${adCopy}\n\n**Wariant 2:** Raport ESG w połowę czasu? Sprawdź, jak to robią najlepsi. Zapisz się na webinar.\n\n**Wariant 3:** Mniej Excela, więcej decyzji. Webinar o raportowaniu ESG – 18 marca.`,
    expected: adCopy,
    analysis: adAnalysis,
    note: 'The AI wrote 3 variants of the ad copy; the first is shown.',
  },

  // Summary
  { id: 'summary-obeys', tool: 'summarize', family: 'claude', answer: summary, expected: summary },
  {
    id: 'summary-oto',
    tool: 'summarize',
    family: 'llama-3',
    answer: `Oto streszczenie dokumentu:\n\n${summary}`,
    expected: summary,
  },
  {
    id: 'summary-english-label',
    tool: 'summarize',
    family: 'gpt-4o',
    answer: `Summary:\n${summary}`,
    expected: summary,
  },
  {
    id: 'summary-label-inline',
    tool: 'summarize',
    family: 'mistral',
    answer: `**Streszczenie:** ${summary}\n\nCzy mam przygotować także wersję w punktach?`,
    expected: summary,
  },
  {
    id: 'summary-fenced',
    tool: 'summarize',
    family: 'gpt-4o',
    answer: `\`\`\`\n${summary}\n\`\`\``,
    expected: summary,
  },

  // Social post
  { id: 'post-obeys', tool: 'social-media-post', family: 'gpt-4o', answer: post, expected: post },
  {
    id: 'post-preamble-and-word-note',
    tool: 'social-media-post',
    family: 'llama-3',
    answer: `Oto post na LinkedIn w imieniu prezesa:\n\n${post}\n\n(Post ma 87 słów i mieści się w limicie 200 słów.)`,
    expected: post,
  },
  {
    id: 'post-bold-emphasis',
    tool: 'social-media-post',
    family: 'claude',
    answer: post
      .replace('to nie formalność', '**to nie formalność**')
      .replace('jednego właściciela procesu', '__jednego właściciela procesu__'),
    expected: post,
  },
  {
    id: 'post-heading-and-offer',
    tool: 'social-media-post',
    family: 'mistral',
    answer: `## Post na LinkedIn\n\n${post}\n\n---\n\nDaj znać, czy dopasować ton!`,
    expected: post,
  },
  {
    id: 'post-english-preamble',
    tool: 'social-media-post',
    family: 'gpt-4o',
    answer: `Sure! Here's a LinkedIn post written as the CEO:\n\n${post}\n\nWord count: 61`,
    expected: post,
  },

  // Teaser
  { id: 'teaser-obeys', tool: 'teaser-generator', family: 'claude', answer: teaser, expected: teaser },
  {
    id: 'teaser-email-frame',
    tool: 'teaser-generator',
    family: 'gpt-4o',
    answer: `Temat: Raport ESG w połowę czasu\n\nDzień dobry,\n\n${teaser}\n\nPozdrawiam,\nZespół Marketingu`,
    expected: teaser,
  },
  {
    id: 'teaser-bold',
    tool: 'teaser-generator',
    family: 'llama-3',
    answer: teaser.replace('skracają go o połowę', '**skracają go o połowę**'),
    expected: teaser,
  },
  {
    id: 'teaser-three-options',
    tool: 'teaser-generator',
    family: 'mistral',
    answer: `Here are three teaser options:\n\n1. ${teaser}\n\n2. Raport ESG bez nerwów – zobacz, jak to robią najlepsi.\n\n3. Mniej pracy, więcej decyzji: przeczytaj nasz przegląd.`,
    expected: teaser,
    note: 'The AI wrote 3 variants; the first is shown.',
  },
  {
    id: 'teaser-subject-line-and-sign-off',
    tool: 'teaser-generator',
    family: 'claude',
    answer: `**Temat:** Raport ESG w połowę czasu\n\n${teaser}\n\nZ poważaniem,\n[Imię i nazwisko]`,
    expected: teaser,
  },
];
