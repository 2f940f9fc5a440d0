/**
 * What the sandbox's accounts are seeded with: each account's plan, team, activity, task groups and
 * data apps, and the words task names are made of. Fixed, so the docs and the demo can name them.
 */
import type { Plan } from './info';

/** How busy an account's tasks are; `heavy` makes the Enterprise account the benchmark's 10,000+ rows. */
export type Activity = 'normal' | 'heavy';

export interface GroupPlan {
  name: string;
  size: number;
  /** Names for a big uniform group ("Catalog — category 017") instead of site × kind. */
  prefix?: string;
}
export interface AppPlan {
  name: string;
  releases: string[];
  missingSecrets: string[];
}
export interface AccountPlan {
  username: string;
  plan: Plan;
  team: string;
  activity: Activity;
  groups: GroupPlan[];
  apps: AppPlan[];
  /** Tasks (group index, task index) seeded as failing or slowing, so health has something to show. */
  health?: { failing: [number, number][]; slowing: [number, number][] };
}

/** accounts[0] is the Professional account the demo signs in with. */
export const ACCOUNT_PLANS: AccountPlan[] = [
  {
    username: 'ada',
    plan: 'Professional',
    team: 'growth',
    activity: 'normal',
    groups: [
      { name: 'Price monitoring', size: 14 },
      { name: 'Lead generation', size: 9 },
      { name: 'News & media', size: 22 },
      { name: 'Product catalog', size: 160, prefix: 'Catalog — category' },
      { name: 'Social listening', size: 6 },
      { name: 'Drafts', size: 0 },
    ],
    apps: [
      {
        name: 'price-tracker',
        releases: ['1.0.0', '1.1.0', '1.2.3'],
        missingSecrets: ['PROXY_TOKEN', 'SLACK_WEBHOOK'],
      },
      { name: 'news-digest', releases: [], missingSecrets: [] },
      { name: 'lead-finder', releases: ['0.9.1'], missingSecrets: [] },
    ],
    health: {
      failing: [
        [0, 0],
        [0, 1],
        [2, 3],
      ],
      slowing: [
        [1, 0],
        [2, 0],
        [4, 1],
      ],
    },
  },
  {
    username: 'grace',
    plan: 'Standard',
    team: 'growth',
    activity: 'normal',
    groups: [
      { name: 'Reviews', size: 12 },
      { name: 'Job boards', size: 8 },
      { name: 'Real estate', size: 7 },
    ],
    apps: [{ name: 'review-miner', releases: ['2.0.0'], missingSecrets: ['OPENAI_KEY'] }],
  },
  {
    username: 'linus',
    plan: 'Enterprise',
    team: 'platform',
    activity: 'heavy',
    groups: [
      { name: 'Marketplace crawl', size: 60, prefix: 'Marketplace shard' },
      { name: 'Competitor prices', size: 45 },
      { name: 'Supplier feeds', size: 35, prefix: 'Supplier feed' },
    ],
    apps: [
      { name: 'catalog-sync', releases: ['3.4.0', '3.5.0'], missingSecrets: [] },
      { name: 'stock-watch', releases: [], missingSecrets: ['ERP_PASSWORD'] },
    ],
  },
  {
    username: 'fiona',
    plan: 'Free',
    team: 'fiona',
    activity: 'normal',
    groups: [{ name: 'My first tasks', size: 3 }],
    apps: [{ name: 'hello-scraper', releases: ['0.1.0'], missingSecrets: [] }],
  },
];

export const SITES = [
  'Amazon',
  'eBay',
  'Etsy',
  'Walmart',
  'Zillow',
  'Indeed',
  'LinkedIn',
  'Yelp',
  'Booking',
  'Reddit',
  'Google Maps',
  'TripAdvisor',
  'Best Buy',
  'IKEA',
  'Target',
  'Hacker News',
  'Craigslist',
  'Glassdoor',
];
export const KINDS = [
  'prices',
  'listings',
  'reviews',
  'search results',
  'product details',
  'contacts',
  'posts',
  'ratings',
  'stock levels',
  'job ads',
  'store locator',
  'top sellers',
];
