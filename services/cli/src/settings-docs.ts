import { SERVICE_SETTINGS, withSettingsSection } from '@civicgraph/stack';
import { cliSettings } from './config.js';

/** Every settings schema the README documents: the `civicgraph` command's, then each service process's. */
export const ALL_SETTINGS = [cliSettings, ...SERVICE_SETTINGS];

/** The README with its settings section generated from ALL_SETTINGS. */
export function readmeWithSettings(readme: string): string {
  return withSettingsSection(readme, ALL_SETTINGS);
}
