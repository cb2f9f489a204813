import type { BrandProfile } from '@gem/contracts/brand-voice';

/**
 * The demo's brand profile (issue 31): a fictional Polish consulting firm, saved as version 1
 * while the demo accounts are on and no profile exists, so a fresh `npm start` shows the brand
 * voice working (the generators send it, the check finds its terms). It is an ordinary version:
 * administrators edit it or replace it like any other.
 */
export const SAMPLE_BRAND_NOTE = 'Sample profile of a fictional consulting firm (GEM’s demo data).';

export const sampleBrandProfile: BrandProfile = {
  voice: {
    attributes: [
      {
        name: 'ekspercki, ale przystępny',
        explanation:
          'Piszemy jak doświadczony doradca przy stole: konkretnie, bez żargonu tam, gdzie nie jest potrzebny.',
      },
      {
        name: 'konkretny',
        explanation: 'Liczby, terminy i przykłady zamiast ogólników. Każde zdanie coś wnosi.',
      },
      {
        name: 'spokojny i pewny',
        explanation: 'Bez krzyku, wykrzykników i obietnic bez pokrycia. Pewność wynika z faktów.',
      },
      {
        name: 'partnerski',
        explanation: 'Piszemy o wspólnej pracy z klientem, nie o tym, co „robimy dla” niego.',
      },
    ],
    address: 'panstwo',
  },
  audienceNotes:
    'Zarządy, dyrektorzy finansowi i właściciele średnich i dużych firm w Polsce. Czytają szybko, cenią dane i doświadczenie z podobnych projektów; nie lubią marketingowych superlatywów.',
  examples: [
    {
      do: 'Pomagamy Państwu przygotować transakcję: od badania due diligence po negocjacje z inwestorem.',
      dont: 'Oferujemy kompleksowe rozwiązania szyte na miarę w najlepszej cenie!!!',
    },
    {
      do: 'W 2025 roku doradzaliśmy przy 40 transakcjach w sektorze produkcyjnym.',
      dont: 'Jesteśmy liderem rynku i najlepszym doradcą w Polsce.',
    },
  ],
  preferred: [
    { term: 'klient', replaces: ['petent'], reason: 'Tak mówimy o ludziach, z którymi pracujemy.' },
    { term: 'wynagrodzenie', replaces: ['honorarium'], reason: 'Prostsze i zgodne z umowami.' },
    { term: 'zespół', replaces: ['ekipa'], reason: 'Ton profesjonalny, nie potoczny.' },
  ],
  banned: [
    {
      term: 'tani',
      reason: 'Brzmi jak niska jakość; konkurujemy wartością, nie ceną.',
      replacement: 'przystępny',
    },
    {
      term: 'rozwiązanie szyte na miarę',
      reason: 'Wytarty frazes, który nic nie mówi.',
      replacement: 'rozwiązanie dopasowane do Państwa firmy',
    },
    {
      term: 'kompleksowy',
      reason: 'Ogólnik; lepiej wymienić, co dokładnie obejmuje usługa.',
      replacement: 'pełny',
    },
    {
      term: 'gwarantowany',
      reason: 'Nie gwarantujemy wyników doradztwa (ryzyko prawne).',
      replacement: 'oczekiwany',
    },
    {
      term: 'lider rynku',
      reason: 'Twierdzenie bez dowodu; używamy tylko udokumentowanych faktów.',
      replacement: '',
    },
  ],
  // Names as they must be written: proper names only. A common word ("audyt") would be flagged
  // wherever it is written in lower case, as the name rule checks the spelling of every match.
  names: ['Deal Advisory', 'Akademia Finansów', 'ESG Compass', 'TaxRadar'],
  disclaimers: [
    {
      text: 'Materiał ma charakter informacyjny i nie stanowi porady prawnej ani podatkowej.',
      targets: ['paid-ads', 'google-ads', 'meta-ads'],
    },
  ],
  facts: {
    serviceLines: ['Deal Advisory', 'Doradztwo Podatkowe', 'Audyt', 'Doradztwo ESG'],
    offices: ['Warszawa', 'Kraków', 'Wrocław', 'Gdańsk'],
    claims: [
      'Ponad 25 lat doświadczenia na polskim rynku.',
      'Ponad 300 ekspertów w czterech biurach.',
      'Członek międzynarodowej sieci niezależnych firm doradczych.',
    ],
  },
  acronyms: ['M&A', 'ESG', 'CIT', 'VAT', 'IFRS'],
};
