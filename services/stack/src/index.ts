export { startStack, type PreparedServices, type Stack, type StackConfig } from './stack.js';
export { README_MARKERS, SERVICE_SETTINGS, withSettingsSection } from './settings.js';
