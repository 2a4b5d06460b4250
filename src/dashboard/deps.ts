// What every dashboard page module is given when it is mounted.
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Services } from '../services.ts';

export interface DashboardDeps {
  config: Config;
  database: Database;
  services: Services;
}
