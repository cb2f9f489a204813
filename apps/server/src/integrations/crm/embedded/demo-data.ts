import { fold } from '../../../lib/search-text';
import { demoRecordId } from '../salesforce-id';

/**
 * The embedded demo CRM's data set: a fictional firm's campaigns over the last two years, 2,000
 * fictional accounts (Polish and international, every website on `.example`), 10,000 fictional
 * contacts and their campaign memberships. Deterministic: the same seed and anchor day give the
 * same records (no clock, no network, no Math.random). Response rates differ by segment (each
 * campaign's topic draws its own work areas, titles and sub-industries), so the facts a campaign
 * shows tell a story the audience builder can reason about.
 */

export const DEMO_SEED = 20_261_114;
export const DEMO_ACCOUNTS = 2_000;
export const DEMO_CONTACTS = 10_000;
/** The flagship campaign's members (the largest campaign; the bench measures its facts). */
export const FLAGSHIP_MEMBERS = 5_000;

export type DemoCampaign = {
  id: string;
  name: string;
  search_name: string;
  type: string;
  status: string;
  start_date: string;
  objective: string;
  line_of_service: string | null;
};
export type DemoAccount = {
  id: string;
  name: string;
  website: string;
  industry: string;
  sub_industry: string;
  country: string;
  city: string;
  employees: number;
  /** In DEMO_CURRENCY, whole units. */
  annual_revenue: number;
};
export type DemoContact = {
  id: string;
  account_id: string;
  first_name: string;
  last_name: string;
  email: string;
  title: string;
  role: string;
  work_area: string;
};
export type DemoMember = {
  id: string;
  campaign_id: string;
  contact_id: string;
  status: string;
  has_responded: boolean;
  responded_at: string | null;
};
export type DemoCrmData = {
  campaigns: DemoCampaign[];
  accounts: DemoAccount[];
  contacts: DemoContact[];
  members: DemoMember[];
};

/** The demo firm's currency: its accounts' annual revenue is in it. */
export const DEMO_CURRENCY = 'PLN';

/** Key prefixes of the objects, as Salesforce has them. */
const prefixes = { account: '001', contact: '003', campaign: '701', member: '00v' } as const;

/** mulberry32: a small, fast, seedable PRNG; plenty for a demo data set. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
function weighted<T>(random: Random, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = random() * total;
  for (const [value, w] of entries) {
    r -= w;
    if (r < 0) return value;
  }
  return entries.at(-1)![0];
}
const intBetween = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

/** Annual revenue per employee by industry, in DEMO_CURRENCY (roughly what Polish firms report). */
const revenuePerEmployee: Record<string, number> = {
  Manufacturing: 550_000,
  'Financial Services': 1_100_000,
  'Technology & Telecom': 450_000,
  'Energy & Utilities': 2_000_000,
  'Retail & Consumer': 700_000,
  'Healthcare & Life Sciences': 500_000,
  'Real Estate & Construction': 800_000,
  'Transport & Logistics': 450_000,
  'Public Sector': 250_000,
};

/** FNV-1a: a record id as a seed of its own. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * An account's annual revenue: its employees times its industry's revenue per employee, times a
 * factor between ½ and 2 drawn from the account's id, rounded to thousands. A function of the
 * account alone (not of the data set's random sequence), so adding it left every other record as
 * it was, and a data set seeded before it had revenue gets the same figures (seed.ts).
 */
export function demoAnnualRevenue(account: { id: string; industry: string; employees: number }): number {
  const factor = 2 ** (prng(hashOf(account.id))() * 2 - 1);
  const perEmployee = revenuePerEmployee[account.industry] ?? 500_000;
  return Math.round((account.employees * perEmployee * factor) / 1_000) * 1_000;
}

/** Industries, their share of accounts, and their sub-industries. */
export const industries: readonly { name: string; weight: number; subs: readonly string[] }[] = [
  {
    name: 'Manufacturing',
    weight: 22,
    subs: ['Automotive parts', 'Food processing', 'Chemicals', 'Industrial machinery', 'Furniture'],
  },
  {
    name: 'Financial Services',
    weight: 14,
    subs: ['Banking', 'Insurance', 'Asset management', 'Leasing', 'Fintech'],
  },
  {
    name: 'Technology & Telecom',
    weight: 12,
    subs: ['Software', 'IT services', 'Telecommunications', 'E-commerce'],
  },
  {
    name: 'Energy & Utilities',
    weight: 8,
    subs: ['Power generation', 'Oil & gas', 'Renewables', 'Water utilities'],
  },
  {
    name: 'Retail & Consumer',
    weight: 12,
    subs: ['Grocery retail', 'Fashion retail', 'Consumer electronics', 'FMCG'],
  },
  {
    name: 'Healthcare & Life Sciences',
    weight: 8,
    subs: ['Pharmaceuticals', 'Medical devices', 'Private healthcare'],
  },
  {
    name: 'Real Estate & Construction',
    weight: 10,
    subs: ['Construction', 'Commercial real estate', 'Residential development'],
  },
  { name: 'Transport & Logistics', weight: 9, subs: ['Road freight', 'Warehousing', 'Rail', 'Aviation'] },
  { name: 'Public Sector', weight: 5, subs: ['Local government', 'State-owned enterprises'] },
];

/** Work areas, their share of contacts, and the titles people in them hold (most common first). */
export const workAreas: readonly { name: string; weight: number; titles: readonly string[] }[] = [
  {
    name: 'Finance',
    weight: 24,
    titles: [
      'Finance Director',
      'CFO',
      'Financial Controller',
      'Chief Accountant',
      'Head of Controlling',
      'Finance Manager',
    ],
  },
  { name: 'Tax', weight: 9, titles: ['Tax Manager', 'Head of Tax', 'Tax Specialist'] },
  { name: 'IT', weight: 14, titles: ['IT Director', 'CIO', 'IT Manager', 'Head of Cybersecurity', 'CTO'] },
  { name: 'HR', weight: 11, titles: ['HR Director', 'HR Business Partner', 'Head of Payroll', 'CHRO'] },
  {
    name: 'Operations',
    weight: 12,
    titles: ['Operations Director', 'COO', 'Supply Chain Manager', 'Plant Manager'],
  },
  { name: 'Legal', weight: 7, titles: ['Legal Counsel', 'General Counsel', 'Compliance Officer'] },
  { name: 'Management', weight: 13, titles: ['Managing Director', 'CEO', 'Board Member', 'Owner'] },
  {
    name: 'Strategy',
    weight: 5,
    titles: ['Business Development Director', 'Head of Strategy', 'M&A Manager'],
  },
  { name: 'Sustainability', weight: 5, titles: ['ESG Manager', 'Sustainability Director'] },
];

export const roles = ['Decision maker', 'Influencer', 'User', 'Champion'] as const;

const seniorTitle = /^(?:C[A-Z]O|CHRO|Head|Director|Board|Owner|Managing|General Counsel)|Director$/;

function roleOf(random: Random, title: string): string {
  if (seniorTitle.test(title))
    return weighted(random, [
      ['Decision maker', 70],
      ['Influencer', 20],
      ['Champion', 10],
    ]);
  if (/Manager|Controller|Counsel|Officer|Partner/.test(title))
    return weighted(random, [
      ['Influencer', 55],
      ['User', 25],
      ['Champion', 12],
      ['Decision maker', 8],
    ]);
  return weighted(random, [
    ['User', 70],
    ['Influencer', 25],
    ['Champion', 5],
  ]);
}

const polishFirst = {
  f: [
    'Anna',
    'Katarzyna',
    'Magdalena',
    'Agnieszka',
    'Joanna',
    'Małgorzata',
    'Monika',
    'Ewa',
    'Marta',
    'Aleksandra',
    'Zofia',
    'Natalia',
    'Karolina',
    'Dorota',
    'Beata',
    'Iwona',
  ],
  m: [
    'Piotr',
    'Tomasz',
    'Paweł',
    'Michał',
    'Krzysztof',
    'Marcin',
    'Jakub',
    'Łukasz',
    'Andrzej',
    'Grzegorz',
    'Wojciech',
    'Mateusz',
    'Adam',
    'Rafał',
    'Jan',
    'Bartosz',
  ],
};
/** Polish surnames: the masculine form, the feminine one when it differs. */
const polishLast: readonly (readonly [string, string])[] = [
  ['Nowak', 'Nowak'],
  ['Kowalski', 'Kowalska'],
  ['Wiśniewski', 'Wiśniewska'],
  ['Wójcik', 'Wójcik'],
  ['Kowalczyk', 'Kowalczyk'],
  ['Kamiński', 'Kamińska'],
  ['Lewandowski', 'Lewandowska'],
  ['Zieliński', 'Zielińska'],
  ['Szymański', 'Szymańska'],
  ['Woźniak', 'Woźniak'],
  ['Dąbrowski', 'Dąbrowska'],
  ['Kozłowski', 'Kozłowska'],
  ['Jankowski', 'Jankowska'],
  ['Mazur', 'Mazur'],
  ['Kwiatkowski', 'Kwiatkowska'],
  ['Krawczyk', 'Krawczyk'],
  ['Piotrowski', 'Piotrowska'],
  ['Grabowski', 'Grabowska'],
  ['Nowakowski', 'Nowakowska'],
  ['Pawłowski', 'Pawłowska'],
  ['Michalski', 'Michalska'],
  ['Król', 'Król'],
  ['Wieczorek', 'Wieczorek'],
  ['Jabłoński', 'Jabłońska'],
  ['Wróbel', 'Wróbel'],
  ['Majewski', 'Majewska'],
  ['Olszewski', 'Olszewska'],
  ['Stępień', 'Stępień'],
  ['Malinowski', 'Malinowska'],
  ['Jaworski', 'Jaworska'],
  ['Adamczyk', 'Adamczyk'],
  ['Dudek', 'Dudek'],
];
const internationalFirst = [
  'Emma',
  'Olivia',
  'Sophie',
  'Hanna',
  'Laura',
  'Lucas',
  'Noah',
  'Liam',
  'Felix',
  'Jonas',
  'Daniel',
  'Thomas',
  'Claire',
  'Julia',
  'Martin',
  'Eva',
];
const internationalLast = [
  'Müller',
  'Schmidt',
  'Fischer',
  'Weber',
  'Smith',
  'Johnson',
  'Brown',
  'Taylor',
  'de Vries',
  'Janssen',
  'Dubois',
  'Laurent',
  'Novák',
  'Svoboda',
  'Rossi',
  'García',
];

const polishStems = [
  'Wisła',
  'Mazovia',
  'Bałtyk',
  'Karpaty',
  'Polan',
  'Orzeł',
  'Warta',
  'Odra',
  'Sudety',
  'Tatra',
  'Pomorze',
  'Kujawy',
  'Lechia',
  'Narew',
  'Bieszczady',
  'Wawel',
  'Jantar',
  'Podhale',
  'Mazury',
  'Roztocze',
];
const internationalStems = [
  'Northwind',
  'Contoso',
  'Fabrikam',
  'Blue Harbor',
  'Silverline',
  'Nordlicht',
  'Alpenrose',
  'Helix',
  'Vireo',
  'Castellan',
  'Meridian',
  'Brightwater',
  'Ostara',
  'Lumen',
  'Granite Peak',
  'Evergreen',
];
/** A word for the business, by industry. */
const businessWords: Record<string, readonly string[]> = {
  Manufacturing: ['Tech', 'Metal', 'Chem', 'Fabryka', 'Industries', 'Produkcja'],
  'Financial Services': ['Finanse', 'Capital', 'Bank', 'Invest', 'Leasing', 'Ubezpieczenia'],
  'Technology & Telecom': ['Soft', 'Systems', 'Digital', 'Data', 'Net', 'Cloud'],
  'Energy & Utilities': ['Energia', 'Power', 'Wod-Kan', 'Green Energy', 'Gaz'],
  'Retail & Consumer': ['Market', 'Retail', 'Sklepy', 'Brands', 'Dom Handlowy'],
  'Healthcare & Life Sciences': ['Pharma', 'Med', 'Zdrowie', 'Bio', 'Clinic'],
  'Real Estate & Construction': ['Bud', 'Development', 'Nieruchomości', 'Construction', 'Invest'],
  'Transport & Logistics': ['Logistics', 'Trans', 'Spedycja', 'Cargo', 'Rail'],
  'Public Sector': ['Zakład Usług', 'Agencja', 'Centrum Usług Wspólnych', 'Przedsiębiorstwo Komunalne'],
};
const polishCities = [
  'Warszawa',
  'Kraków',
  'Wrocław',
  'Poznań',
  'Gdańsk',
  'Łódź',
  'Katowice',
  'Lublin',
  'Szczecin',
  'Bydgoszcz',
  'Rzeszów',
  'Białystok',
];
const abroad: readonly (readonly [string, readonly string[], readonly string[]])[] = [
  ['Germany', ['Berlin', 'München', 'Hamburg', 'Frankfurt'], ['GmbH', 'AG']],
  ['United Kingdom', ['London', 'Manchester'], ['Ltd', 'plc']],
  ['Netherlands', ['Amsterdam', 'Rotterdam'], ['B.V.', 'N.V.']],
  ['France', ['Paris', 'Lyon'], ['SAS', 'SA']],
  ['Czechia', ['Praha', 'Brno'], ['s.r.o.', 'a.s.']],
  ['United States', ['New York', 'Chicago'], ['Inc.', 'LLC']],
];

/**
 * A campaign topic: its type, line of service, name, objective, and who responds to it more
 * than others (work areas, titles, sub-industries).
 */
type Topic = {
  type: 'Webinar' | 'Event' | 'Report' | 'Email' | 'Content Marketing';
  lineOfService: string | null;
  name: string;
  objective: string;
  workAreas: readonly string[];
  titles: readonly string[];
  subIndustries: readonly string[];
};

const topics: readonly Topic[] = [
  {
    type: 'Webinar',
    lineOfService: 'Tax',
    name: 'KSeF e-invoicing readiness',
    objective:
      'Prepare finance and tax teams for mandatory e-invoicing in KSeF; generate meetings for the tax technology offer.',
    workAreas: ['Tax', 'Finance'],
    titles: ['Head of Tax', 'Tax Manager', 'Chief Accountant'],
    subIndustries: ['Grocery retail', 'FMCG', 'Road freight'],
  },
  {
    type: 'Webinar',
    lineOfService: 'Tax',
    name: 'Pillar Two: global minimum tax',
    objective:
      'Explain the 15% global minimum tax to groups with revenue over EUR 750m; position the Pillar Two compliance service.',
    workAreas: ['Tax'],
    titles: ['Head of Tax', 'CFO'],
    subIndustries: ['Banking', 'Automotive parts', 'Pharmaceuticals'],
  },
  {
    type: 'Event',
    lineOfService: 'Audit & Assurance',
    name: 'CFO Breakfast',
    objective:
      'Meet CFOs of large companies in person; build relationships ahead of the audit tender season.',
    workAreas: ['Finance', 'Management'],
    titles: ['CFO', 'Finance Director'],
    subIndustries: ['Industrial machinery', 'Insurance', 'Construction'],
  },
  {
    type: 'Report',
    lineOfService: 'Audit & Assurance',
    name: 'CSRD reporting survey',
    objective:
      'Share survey results on sustainability reporting under CSRD; open conversations about ESG assurance.',
    workAreas: ['Sustainability', 'Finance'],
    titles: ['ESG Manager', 'Sustainability Director', 'CFO'],
    subIndustries: ['Power generation', 'Chemicals', 'Renewables'],
  },
  {
    type: 'Webinar',
    lineOfService: 'Consulting',
    name: 'Cybersecurity for boards: NIS2',
    objective:
      'Show boards and IT leaders what NIS2 requires of them; generate leads for the cyber risk assessment.',
    workAreas: ['IT', 'Legal', 'Management'],
    titles: ['CIO', 'Head of Cybersecurity', 'Board Member'],
    subIndustries: ['Water utilities', 'Power generation', 'Telecommunications'],
  },
  {
    type: 'Event',
    lineOfService: 'Deals',
    name: 'M&A outlook Poland',
    objective:
      'Present the deal market outlook to owners and boards; surface sell-side and buy-side mandates.',
    workAreas: ['Management', 'Strategy'],
    titles: ['Owner', 'CEO', 'M&A Manager'],
    subIndustries: ['Software', 'Food processing', 'Private healthcare'],
  },
  {
    type: 'Email',
    lineOfService: 'Tax',
    name: 'Transfer pricing deadlines reminder',
    objective:
      'Remind tax teams of the TPR filing deadline; sell the transfer pricing documentation package.',
    workAreas: ['Tax', 'Finance'],
    titles: ['Tax Manager', 'Financial Controller'],
    subIndustries: ['Automotive parts', 'Chemicals'],
  },
  {
    type: 'Content Marketing',
    lineOfService: 'Consulting',
    name: 'AI in the finance function',
    objective:
      'Publish an article series on AI in finance; nurture finance leaders toward the finance transformation offer.',
    workAreas: ['Finance', 'IT'],
    titles: ['CFO', 'Head of Controlling', 'CIO'],
    subIndustries: ['Banking', 'Fintech', 'E-commerce'],
  },
  {
    type: 'Webinar',
    lineOfService: 'Consulting',
    name: 'Payroll and HR compliance update',
    objective:
      'Walk HR and payroll teams through this year’s labour law changes; promote payroll outsourcing.',
    workAreas: ['HR'],
    titles: ['HR Director', 'Head of Payroll'],
    subIndustries: ['Grocery retail', 'Warehousing', 'Private healthcare'],
  },
  {
    type: 'Report',
    lineOfService: 'Deals',
    name: 'Family business succession study',
    objective:
      'Publish the family business succession study; start conversations with owners about succession and sale.',
    workAreas: ['Management'],
    titles: ['Owner', 'Managing Director'],
    subIndustries: ['Furniture', 'Food processing', 'Construction'],
  },
  {
    type: 'Event',
    lineOfService: 'Consulting',
    name: 'Supply chain resilience roundtable',
    objective:
      'Gather operations leaders to discuss nearshoring and supply chain risk; identify consulting projects.',
    workAreas: ['Operations'],
    titles: ['COO', 'Supply Chain Manager', 'Plant Manager'],
    subIndustries: ['Automotive parts', 'Industrial machinery', 'Road freight'],
  },
  {
    type: 'Email',
    lineOfService: 'Audit & Assurance',
    name: 'Year-end closing checklist',
    objective: 'Send the year-end closing checklist to accounting teams; book pre-audit meetings.',
    workAreas: ['Finance'],
    titles: ['Chief Accountant', 'Financial Controller'],
    subIndustries: ['Leasing', 'Commercial real estate'],
  },
  {
    type: 'Webinar',
    lineOfService: 'Audit & Assurance',
    name: 'IFRS 18 presentation changes',
    objective: 'Explain IFRS 18 to reporting teams; position the IFRS conversion support.',
    workAreas: ['Finance'],
    titles: ['CFO', 'Chief Accountant', 'Head of Controlling'],
    subIndustries: ['Banking', 'Insurance', 'Asset management'],
  },
  {
    type: 'Content Marketing',
    lineOfService: 'Tax',
    name: 'VAT in real estate guide',
    objective:
      'Publish a guide to VAT on real estate transactions; generate tax advisory leads among developers.',
    workAreas: ['Tax', 'Finance'],
    titles: ['Tax Manager', 'CFO'],
    subIndustries: ['Residential development', 'Commercial real estate', 'Construction'],
  },
  {
    type: 'Event',
    lineOfService: 'Consulting',
    name: 'Women in Tech leadership forum',
    objective:
      'Host technology leaders for a leadership forum; grow the firm’s brand among IT decision makers.',
    workAreas: ['IT', 'HR'],
    titles: ['CTO', 'IT Director', 'CHRO'],
    subIndustries: ['Software', 'IT services', 'Telecommunications'],
  },
  {
    type: 'Report',
    lineOfService: 'Consulting',
    name: 'Energy transition barometer',
    objective: 'Publish the energy transition barometer; open conversations about decarbonisation strategy.',
    workAreas: ['Sustainability', 'Strategy', 'Operations'],
    titles: ['Sustainability Director', 'Head of Strategy'],
    subIndustries: ['Power generation', 'Oil & gas', 'Renewables'],
  },
  {
    type: 'Webinar',
    lineOfService: 'Deals',
    name: 'Valuation in volatile markets',
    objective: 'Discuss valuation methods when rates move; support deal advisory and valuation services.',
    workAreas: ['Strategy', 'Finance'],
    titles: ['M&A Manager', 'CFO', 'Business Development Director'],
    subIndustries: ['Fintech', 'Software', 'Pharmaceuticals'],
  },
  {
    type: 'Email',
    lineOfService: 'Consulting',
    name: 'Compliance officer newsletter',
    objective:
      'Monthly regulatory digest for compliance officers; keep the risk advisory practice top of mind.',
    workAreas: ['Legal'],
    titles: ['Compliance Officer', 'General Counsel'],
    subIndustries: ['Banking', 'Insurance', 'Medical devices'],
  },
  {
    type: 'Content Marketing',
    lineOfService: 'Audit & Assurance',
    name: 'Internal audit insights',
    objective:
      'Share internal audit practices through articles and short videos; nurture audit committee members.',
    workAreas: ['Finance', 'Management', 'Legal'],
    titles: ['Board Member', 'Financial Controller'],
    subIndustries: ['State-owned enterprises', 'Local government', 'Rail'],
  },
  {
    type: 'Webinar',
    lineOfService: 'Tax',
    name: 'Tax incentives for R&D and IP Box',
    objective: 'Show how to claim the R&D relief and IP Box; generate leads for the tax incentives team.',
    workAreas: ['Tax', 'IT', 'Finance'],
    titles: ['Head of Tax', 'CTO', 'CFO'],
    subIndustries: ['Software', 'Medical devices', 'Chemicals'],
  },
];

/** Base response rate by campaign type. */
const baseRate: Record<Topic['type'], number> = {
  Webinar: 0.15,
  Event: 0.11,
  Report: 0.09,
  Email: 0.04,
  'Content Marketing': 0.06,
};
const respondedStatus: Record<Topic['type'], string> = {
  Webinar: 'Attended',
  Event: 'Attended',
  Report: 'Downloaded',
  Email: 'Clicked',
  'Content Marketing': 'Engaged',
};

const DAY = 86_400_000;
const addDays = (isoDay: string, days: number) =>
  new Date(Date.parse(`${isoDay}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

const slug = (text: string) =>
  fold(text)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * The whole data set. `anchorDate` (YYYY-MM-DD, the day it is seeded) is the day the campaigns'
 * dates count back from: the oldest starts about two years before it, the newest just after.
 */
export function generateDemoCrm({
  seed = DEMO_SEED,
  anchorDate,
}: {
  seed?: number;
  anchorDate: string;
}): DemoCrmData {
  const random = prng(seed);

  const accounts: DemoAccount[] = [];
  const names = new Set<string>();
  const websites = new Set<string>();
  for (let n = 1; accounts.length < DEMO_ACCOUNTS; n += 1) {
    const industry = weighted(
      random,
      industries.map((i) => [i, i.weight] as const),
    );
    const polish = random() < 0.75;
    const word = pick(random, businessWords[industry.name]!);
    let stem: string;
    let form: string;
    let country: string;
    let city: string;
    if (polish) {
      stem = pick(random, polishStems);
      form = random() < 0.7 ? 'Sp. z o.o.' : 'S.A.';
      country = 'Poland';
      city = pick(random, polishCities);
    } else {
      const [c, cities, forms] = pick(random, abroad);
      stem = pick(random, internationalStems);
      form = pick(random, forms);
      country = c;
      city = pick(random, cities);
    }
    // A second company of the same name gets its city: "Wisła Bud Kraków Sp. z o.o.".
    let base = `${stem} ${word}`;
    if (names.has(`${base} ${form}`)) base = `${base} ${city}`;
    const name = `${base} ${form}`;
    if (names.has(name)) continue;
    names.add(name);
    let website = `https://www.${slug(base)}.example`;
    if (websites.has(website)) website = `https://www.${slug(`${base} ${form}`)}.example`;
    websites.add(website);
    const employees = Math.round(10 ** (1.3 + random() * 3.2));
    const id = demoRecordId(prefixes.account, n);
    accounts.push({
      id,
      name,
      website,
      industry: industry.name,
      sub_industry: pick(random, industry.subs),
      country,
      city,
      employees,
      annual_revenue: demoAnnualRevenue({ id, industry: industry.name, employees }),
    });
  }

  const contacts: DemoContact[] = [];
  const emails = new Set<string>();
  for (let n = 1; contacts.length < DEMO_CONTACTS; n += 1) {
    const account = accounts[Math.floor(random() ** 1.4 * accounts.length)]!;
    const area = weighted(
      random,
      workAreas.map((w) => [w, w.weight] as const),
    );
    // The first titles of an area are the most common.
    const title =
      area.titles[Math.min(area.titles.length - 1, Math.floor(random() ** 1.6 * area.titles.length))]!;
    let first: string;
    let last: string;
    if (account.country === 'Poland' || random() < 0.15) {
      const female = random() < 0.5;
      first = pick(random, female ? polishFirst.f : polishFirst.m);
      const [male, fem] = pick(random, polishLast);
      last = female ? fem : male;
    } else {
      first = pick(random, internationalFirst);
      last = pick(random, internationalLast);
    }
    const domain = account.website.replace('https://www.', '');
    let email = `${slug(first)}.${slug(last)}@${domain}`;
    if (emails.has(email)) email = `${slug(first)}.${slug(last)}.${n}@${domain}`;
    emails.add(email);
    contacts.push({
      id: demoRecordId(prefixes.contact, n),
      account_id: account.id,
      first_name: first,
      last_name: last,
      email,
      title,
      role: roleOf(random, title),
      work_area: area.name,
    });
  }
  const accountById = new Map(accounts.map((a) => [a.id, a]));

  // Two editions of each topic: 40 campaigns, about every 18 days over two years.
  const campaigns: DemoCampaign[] = [];
  const campaignTopics: Topic[] = [];
  const editions = topics.length * 2;
  for (let i = 0; i < editions; i += 1) {
    const topic = topics[(i * 7) % topics.length]!;
    const daysBefore =
      Math.round(((editions - 1 - i) / (editions - 1)) * 720) - 12 + intBetween(random, -4, 4);
    const start = addDays(anchorDate, -daysBefore);
    const year = start.slice(0, 4);
    const half = Number(start.slice(5, 7)) <= 6 ? 'spring' : 'autumn';
    const label =
      topic.type === 'Event'
        ? `${topic.name} ${pick(random, ['Warsaw', 'Kraków', 'Wrocław', 'Gdańsk'])}`
        : topic.name;
    const name =
      topic.type === 'Email' || topic.type === 'Content Marketing'
        ? `${label} ${year} ${half}`
        : `${label} ${year}`;
    campaigns.push({
      id: demoRecordId(prefixes.campaign, i + 1),
      name: campaigns.some((c) => c.name === name) ? `${name} (${i + 1})` : name,
      search_name: '',
      type: topic.type,
      status: daysBefore > 30 ? 'Completed' : daysBefore > 0 ? 'In Progress' : 'Planned',
      start_date: start,
      objective: topic.objective,
      line_of_service: topic.lineOfService,
    });
    campaignTopics.push(topic);
  }
  for (const c of campaigns) c.search_name = fold(c.name);
  // The flagship: the largest campaign, a recent completed webinar.
  const flagshipIndex = editions - 3;

  const members: DemoMember[] = [];
  let memberNumber = 0;
  campaigns.forEach((campaign, i) => {
    const topic = campaignTopics[i]!;
    const size = i === flagshipIndex ? FLAGSHIP_MEMBERS : intBetween(random, 150, 2_400);
    // Weighted sampling without replacement (Efraimidis–Spirakis): the topic's audience is invited more.
    const keyed = contacts.map((contact) => {
      const account = accountById.get(contact.account_id)!;
      let weight = 1;
      if (topic.workAreas.includes(contact.work_area)) weight += 3;
      if (topic.subIndustries.includes(account.sub_industry)) weight += 1;
      return { contact, account, key: random() ** (1 / weight) };
    });
    keyed.sort((a, b) => b.key - a.key);
    const daysSinceStart = Math.round(
      (Date.parse(`${anchorDate}T00:00:00Z`) - Date.parse(`${campaign.start_date}T00:00:00Z`)) / DAY,
    );
    const chosen = keyed.slice(0, size).sort((a, b) => (a.contact.id < b.contact.id ? -1 : 1));
    for (const { contact, account } of chosen) {
      let p = baseRate[topic.type];
      if (topic.workAreas.includes(contact.work_area)) p *= 2.2;
      if (topic.titles.includes(contact.title)) p *= 1.9;
      if (topic.subIndustries.includes(account.sub_industry)) p *= 1.7;
      if (contact.role === 'Decision maker')
        p *= topic.type === 'Event' ? 1.4 : topic.type === 'Email' ? 0.7 : 1;
      if (contact.role === 'Champion') p *= 1.5;
      if (contact.role === 'User')
        p *= topic.type === 'Webinar' || topic.type === 'Content Marketing' ? 1.2 : 0.8;
      // A campaign that has not started has no responses yet; one just started, fewer.
      if (daysSinceStart < 0) p = 0;
      else if (daysSinceStart < 21) p *= (daysSinceStart + 1) / 22;
      const responded = random() < Math.min(p, 0.85);
      const lag = intBetween(random, 0, Math.max(0, Math.min(21, daysSinceStart)));
      memberNumber += 1;
      members.push({
        id: demoRecordId(prefixes.member, memberNumber),
        campaign_id: campaign.id,
        contact_id: contact.id,
        status: responded
          ? respondedStatus[topic.type]
          : topic.type === 'Webinar' && random() < 0.3
            ? 'Registered'
            : 'Sent',
        has_responded: responded,
        responded_at: responded ? addDays(campaign.start_date, lag) : null,
      });
    }
  });

  return { campaigns, accounts, contacts, members };
}
