// Writes corpus.json: GEM's bundled, fictional sample of the competitors' Polish sites (issue 13),
// loaded when crawling is off and the index is empty. Deterministic: the same file every run.
// Pages sit on `.example` hosts, one per competitor key; each page stores how many hours before
// load time it was published (`ageHours`), so the sample always reads as the last six months.
// Run: node apps/server/competitor-samples/generate-corpus.mjs
import { writeFileSync } from 'node:fs';

const competitors = ['deloitte', 'ey', 'pwc', 'strategyand', 'mckinsey', 'kpmg'];
const PAGES_PER_COMPETITOR = 50;
const SIX_MONTHS_HOURS = 182 * 24;

// mulberry32: a small seeded generator, so the corpus never changes between runs.
let seed = 0x6e6d13;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = (list) => list[Math.floor(random() * list.length)];

const topics = [
  {
    pl: 'raportowanie ESG',
    en: 'ESG reporting',
    slug: 'esg',
    words: ['dyrektywa CSRD', 'ślad węglowy', 'taksonomia UE', 'łańcuch wartości', 'ryzyka klimatyczne'],
  },
  {
    pl: 'transformacja cyfrowa',
    en: 'digital transformation',
    slug: 'transformacja-cyfrowa',
    words: [
      'chmura obliczeniowa',
      'automatyzacja procesów',
      'dane w czasie rzeczywistym',
      'architektura systemów',
      'kompetencje cyfrowe',
    ],
  },
  {
    pl: 'sztuczna inteligencja w bankowości',
    en: 'AI in banking',
    slug: 'ai-bankowosc',
    words: [
      'modele językowe',
      'ocena zdolności kredytowej',
      'obsługa klienta',
      'regulacje AI Act',
      'wykrywanie nadużyć',
    ],
  },
  {
    pl: 'cyberbezpieczeństwo',
    en: 'cybersecurity',
    slug: 'cyberbezpieczenstwo',
    words: [
      'dyrektywa NIS2',
      'ataki ransomware',
      'zarządzanie tożsamością',
      'ciągłość działania',
      'ćwiczenia kryzysowe',
    ],
  },
  {
    pl: 'podatki i KSeF',
    en: 'tax and e-invoicing',
    slug: 'podatki-ksef',
    words: [
      'Krajowy System e-Faktur',
      'ceny transferowe',
      'podatek minimalny',
      'ulga B+R',
      'interpretacje podatkowe',
    ],
  },
  {
    pl: 'fuzje i przejęcia',
    en: 'mergers and acquisitions',
    slug: 'fuzje-przejecia',
    words: [
      'wycena spółek',
      'badanie due diligence',
      'fundusze private equity',
      'integracja po przejęciu',
      'rynek transakcji',
    ],
  },
  {
    pl: 'rynek pracy',
    en: 'the labour market',
    slug: 'rynek-pracy',
    words: ['praca hybrydowa', 'wynagrodzenia', 'pokolenie Z', 'luka kompetencyjna', 'dobrostan pracowników'],
  },
  {
    pl: 'transformacja energetyczna',
    en: 'the energy transition',
    slug: 'energetyka',
    words: [
      'odnawialne źródła energii',
      'morska energetyka wiatrowa',
      'magazyny energii',
      'ceny energii',
      'wodór',
    ],
  },
  {
    pl: 'handel detaliczny',
    en: 'retail',
    slug: 'handel',
    words: [
      'sklepy convenience',
      'e-commerce',
      'lojalność klientów',
      'inflacja cen żywności',
      'marki własne',
    ],
  },
  {
    pl: 'łańcuchy dostaw',
    en: 'supply chains',
    slug: 'lancuchy-dostaw',
    words: ['nearshoring', 'logistyka', 'zapasy', 'dostawcy z Azji', 'odporność operacyjna'],
  },
  {
    pl: 'ochrona zdrowia',
    en: 'healthcare',
    slug: 'zdrowie',
    words: ['szpitale', 'telemedycyna', 'finansowanie świadczeń', 'przemysł farmaceutyczny', 'dane medyczne'],
  },
  {
    pl: 'elektromobilność',
    en: 'e-mobility',
    slug: 'elektromobilnosc',
    words: [
      'samochody elektryczne',
      'infrastruktura ładowania',
      'baterie',
      'flota firmowa',
      'transport publiczny',
    ],
  },
  {
    pl: 'nieruchomości komercyjne',
    en: 'commercial real estate',
    slug: 'nieruchomosci',
    words: ['biurowce', 'magazyny', 'stopy kapitalizacji', 'certyfikaty zielonych budynków', 'najemcy'],
  },
  {
    pl: 'zarządzanie ryzykiem',
    en: 'risk management',
    slug: 'ryzyko',
    words: ['audyt wewnętrzny', 'ład korporacyjny', 'rady nadzorcze', 'sankcje', 'zgodność z regulacjami'],
  },
];

const plTitles = [
  (t) => `Raport: ${t.pl} w Polsce`,
  (t) => `${cap(t.pl)} – pięć wniosków dla zarządów`,
  (t) => `Barometr: ${t.pl} w oczach prezesów`,
  (t) => `Jak firmy podchodzą do tematu: ${t.pl}`,
  (t) => `${cap(t.pl)}: co zmieni się w tym roku`,
  (t) => `Badanie: ${t.pl} a konkurencyjność polskich firm`,
  (t) => `Webinar: ${t.pl} w praktyce`,
];
const enTitles = [
  (t) => `${cap(t.en)} in Poland: what boards should know`,
  (t) => `Outlook: ${t.en} in Central Europe`,
  (t) => `Survey: Polish CEOs on ${t.en}`,
];
const kinds = ['raport', 'artykuł', 'komentarz eksperta', 'badanie', 'webinar'];
const sectors = [
  'bankowość',
  'ubezpieczenia',
  'energetyka',
  'handel',
  'przemysł',
  'sektor publiczny',
  'telekomunikacja',
  'produkcja',
];
const plSentences = [
  (t, _w) =>
    `Z naszego najnowszego badania wynika, że ${t.pl} staje się priorytetem dla ${pick(['większości', 'co trzeciej', 'połowy', 'dwóch na pięć'])} dużych firm w Polsce.`,
  (_t, w) => `Kluczowym tematem pozostaje ${w}, o którym mówią zarówno zarządy, jak i rady nadzorcze.`,
  (_t, w) =>
    `W sektorze „${pick(sectors)}” zmiany są najszybsze, a ${w} wymaga nowych kompetencji i budżetów.`,
  (_t, w) =>
    `Eksperci zwracają uwagę, że ${w} może obniżyć koszty nawet o ${5 + Math.floor(random() * 25)} procent.`,
  (_t, _w) =>
    `Przedsiębiorstwa, które wcześnie zajęły się tematem, szybciej reagują na zmiany regulacji i oczekiwania klientów.`,
  (_t, _w) =>
    `Rekomendujemy, aby zarządy przygotowały plan działań na najbliższe ${pick(['dwanaście', 'osiemnaście', 'dwadzieścia cztery'])} miesiące.`,
  (_t, w) => `Respondenci wskazali ${w} jako obszar, w którym brakuje danych i doświadczonych specjalistów.`,
  (_t, _w) =>
    `W publikacji omawiamy przykłady z Polski i Europy Środkowo-Wschodniej oraz praktyczne wskazówki.`,
];
const enSentences = [
  (t, _w) =>
    `Our latest survey shows that ${t.en} is now a board-level priority for large companies in Poland.`,
  (_t, w) => `Leaders point to ${w} as the area where they lack data and experienced people.`,
  (_t, _w) => `Companies that started early respond faster to new regulation and to what customers expect.`,
  (_t, _w) =>
    `We recommend a plan for the next ${pick(['twelve', 'eighteen', 'twenty-four'])} months with clear owners.`,
];

function cap(text) {
  return text[0].toUpperCase() + text.slice(1);
}

function slugOf(text) {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ł/g, 'l')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const pages = [];
for (const key of competitors) {
  for (let n = 0; n < PAGES_PER_COMPETITOR; n += 1) {
    const topic = pick(topics);
    const english = random() < 0.2;
    const title = (english ? pick(enTitles) : pick(plTitles))(topic);
    const sentences = english ? enSentences : plSentences;
    const body = Array.from({ length: 5 + Math.floor(random() * 5) }, () =>
      pick(sentences)(topic, pick(topic.words)),
    ).join(' ');
    const description = english
      ? `A ${pick(['report', 'article', 'survey'])} on ${topic.en}: ${pick(topic.words)} and what comes next.`
      : `${cap(pick(kinds))} o temacie: ${topic.pl}. ${cap(pick(topic.words))} i co dalej.`;
    pages.push({
      competitorKey: key,
      path: `${english ? 'en' : 'pl'}/insights/${topic.slug}/${slugOf(title)}-${n + 1}.html`,
      title,
      description,
      body,
      ageHours: Math.floor(random() * SIX_MONTHS_HOURS),
    });
  }
}

const corpus = {
  $comment:
    'Fictional pages for GEM Competitor search samples, on .example hosts. Generated by generate-corpus.mjs; do not edit by hand.',
  hosts: Object.fromEntries(competitors.map((key) => [key, `https://${key}.example/`])),
  pages,
};
writeFileSync(new URL('corpus.json', import.meta.url), `${JSON.stringify(corpus, null, 2)}\n`);
console.log(`corpus.json: ${pages.length} pages`);
