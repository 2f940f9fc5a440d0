/**
 * A task's data rows, generated on the fly from (seed, task, row index): nothing is stored, so a
 * task can have a million rows without holding them. Each task has one of a few field sets (the
 * names differ between tasks, as real tasks' do), and every 16 consecutive rows carry each
 * awkward value a writer must survive: empty, commas, quotes, new lines (LF and CRLF), non-Latin
 * text, and values that start with `=`, `+`, `-`, `@` or a TAB.
 */
import { hashString, mulberry32, type Rng } from './prng';

type Kind =
  | 'title'
  | 'price'
  | 'currency'
  | 'rating'
  | 'count'
  | 'url'
  | 'yesno'
  | 'address'
  | 'city'
  | 'state'
  | 'headline'
  | 'person'
  | 'date'
  | 'text'
  | 'company'
  | 'email'
  | 'phone'
  | 'handle'
  | 'salary';

interface FieldSet {
  name: string;
  fields: [string, Kind][];
}

export const FIELD_SETS: readonly FieldSet[] = [
  {
    name: 'products',
    fields: [
      ['Title', 'title'],
      ['Price', 'price'],
      ['Currency', 'currency'],
      ['Rating', 'rating'],
      ['Reviews', 'count'],
      ['URL', 'url'],
      ['In stock', 'yesno'],
    ],
  },
  {
    name: 'listings',
    fields: [
      ['Address', 'address'],
      ['City', 'city'],
      ['State', 'state'],
      ['Price', 'price'],
      ['Beds', 'count'],
      ['Listing URL', 'url'],
    ],
  },
  {
    name: 'news',
    fields: [
      ['Headline', 'headline'],
      ['Author', 'person'],
      ['Published', 'date'],
      ['Summary', 'text'],
      ['Link', 'url'],
    ],
  },
  {
    name: 'jobs',
    fields: [
      ['Job title', 'title'],
      ['Company', 'company'],
      ['Location', 'city'],
      ['Salary', 'salary'],
      ['Posted', 'date'],
      ['Description', 'text'],
    ],
  },
  {
    name: 'reviews',
    fields: [
      ['Reviewer', 'person'],
      ['Stars', 'rating'],
      ['Review', 'text'],
      ['Date', 'date'],
      ['Product', 'title'],
    ],
  },
  {
    name: 'contacts',
    fields: [
      ['Name', 'person'],
      ['Email', 'email'],
      ['Phone', 'phone'],
      ['Company', 'company'],
      ['Handle', 'handle'],
    ],
  },
];

const WORDS = [
  'Deluxe',
  'Classic',
  'Compact',
  'Wireless',
  'Organic',
  'Premium',
  'Smart',
  'Vintage',
  'Portable',
  'Ultra',
  'Eco',
  'Pro',
];
const THINGS = [
  'Kettle',
  'Headphones',
  'Backpack',
  'Desk Lamp',
  'Blender',
  'Sneakers',
  'Monitor',
  'Coffee Beans',
  'Tent',
  'Keyboard',
];
const CITIES = ['Plano', 'Austin', 'Denver', 'Portland', 'Raleigh', 'Madison', 'Boise', 'Tucson', 'Omaha', 'Albany'];
const STATES = [
  'Texas',
  'Colorado',
  'Oregon',
  'North Carolina',
  'Wisconsin',
  'Idaho',
  'Arizona',
  'Nebraska',
  'New York',
];
const PEOPLE = [
  'Ada Byron',
  'Grace Hopper',
  'Linus Pauling',
  'Fiona Shaw',
  'Alan Kay',
  'Barbara Liskov',
  'Ken Thompson',
  'Margaret Hamilton',
];
const COMPANIES = [
  'Acme Corp',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vehement Capital',
  'Soylent',
  'Stark Industries',
];
const STREETS = ['Main St', 'Oak Ave', 'Elm Dr', 'Maple Ln', 'Pine Rd', 'Cedar Ct'];

/** The awkward values, one per slot of 16 rows (slots 11 to 15 are ordinary rows). */
const NON_LATIN = [
  '東京都渋谷区',
  'Ελληνικά προϊόντα',
  'Москва, Россия',
  'مرحبا بالعالم',
  'Zürich · Ærøskøbing',
  'שלום עולם',
  '서울특별시',
  '😀 emoji ✓',
];
const SPECIALS: readonly ((rng: Rng, value: string) => string)[] = [
  () => '',
  (_r, v) => `${v}, Inc.`,
  (_r, v) => `The "${v}" edition`,
  (_r, v) => `${v}\nsecond line`,
  (_r, v) => `First line\r\n${v}`,
  (r) => pick(r, NON_LATIN),
  () => '=HYPERLINK("http://example.invalid","click me")',
  () => '+1 555 0100',
  () => '-15%',
  () => '@scrapedeck',
  (_r, v) => `\t${v}`,
];
const SLOT = 16;

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)] as T;
}

function int(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

function value(kind: Kind, rng: Rng, index: number): string {
  switch (kind) {
    case 'title':
      return `${pick(rng, WORDS)} ${pick(rng, THINGS)}`;
    case 'price':
      return (int(rng, 199, 99_999) / 100).toFixed(2);
    case 'currency':
      return pick(rng, ['USD', 'EUR', 'GBP', 'JPY']);
    case 'rating':
      return (int(rng, 10, 50) / 10).toFixed(1);
    case 'count':
      return String(int(rng, 0, 5000));
    case 'url':
      return `https://www.example.com/item/${index}?ref=${int(rng, 1, 999)}`;
    case 'yesno':
      return rng() < 0.8 ? 'Yes' : 'No';
    case 'address':
      return `${int(rng, 1, 9999)} ${pick(rng, STREETS)}`;
    case 'city':
      return pick(rng, CITIES);
    case 'state':
      return pick(rng, STATES);
    case 'headline':
      return `${pick(rng, COMPANIES)} announces ${pick(rng, WORDS).toLowerCase()} ${pick(rng, THINGS).toLowerCase()}`;
    case 'person':
      return pick(rng, PEOPLE);
    case 'date':
      return `2026-${String(int(rng, 1, 12)).padStart(2, '0')}-${String(int(rng, 1, 28)).padStart(2, '0')}`;
    case 'text':
      return `${pick(rng, WORDS)} and ${pick(rng, WORDS).toLowerCase()}: ${pick(rng, THINGS).toLowerCase()} worth a look.`;
    case 'company':
      return pick(rng, COMPANIES);
    case 'email':
      return `${pick(rng, PEOPLE).split(' ')[0]?.toLowerCase() ?? 'someone'}.${index}@example.com`;
    case 'phone':
      return `(${int(rng, 200, 999)}) 555-${String(int(rng, 0, 9999)).padStart(4, '0')}`;
    case 'handle':
      return `user_${int(rng, 1000, 99999)}`;
    case 'salary':
      return `$${int(rng, 40, 250)}k`;
  }
}

/** The rows of one task: which field set it has, and row `i` on demand. */
export class TaskRows {
  readonly fieldSet: FieldSet;
  private readonly hash: number;

  /** `fieldsOf`: the task whose fields these rows have (a duplicate has its original's). */
  constructor(seed: number, taskId: string, fieldsOf: string = taskId) {
    this.fieldSet = FIELD_SETS[((hashString(`fields|${fieldsOf}`) ^ seed) >>> 0) % FIELD_SETS.length] as FieldSet;
    this.hash = (hashString(`rows|${taskId}`) ^ Math.imul(seed >>> 0, 0x9e3779b1)) >>> 0;
  }

  get fieldNames(): string[] {
    return this.fieldSet.fields.map(([name]) => name);
  }

  row(index: number): Record<string, string> {
    // One stream per row, cheap to seed: no string hashing per row.
    const rng = mulberry32((this.hash ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
    const fields = this.fieldSet.fields;
    const slot = index % SLOT;
    const special = slot < SPECIALS.length ? SPECIALS[slot] : undefined;
    const target = special === undefined ? -1 : Math.floor(index / SLOT) % fields.length;
    const out: Record<string, string> = {};
    for (let f = 0; f < fields.length; f++) {
      const [name, kind] = fields[f] as [string, Kind];
      const v = value(kind, rng, index);
      out[name] = f === target && special !== undefined ? special(rng, v) : v;
    }
    return out;
  }

  /** Rows [from, to). */
  rows(from: number, to: number): Record<string, string>[] {
    const out: Record<string, string>[] = [];
    for (let i = from; i < to; i++) out.push(this.row(i));
    return out;
  }
}
