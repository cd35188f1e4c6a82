import { describe, test } from 'vitest';
import { unavailableMessage, type ServiceAvailability } from '../bus/require-service.js';

/**
 * `describe` for a suite that needs a real server. Available: runs the suite. Missing:
 * warns and skips it, or, when the service is required (CIVIC_REQUIRE_SERVICES=1),
 * replaces it with one failing test that names the service and the reason.
 */
export function describeWithService(title: string, availability: ServiceAvailability, suite: () => void): void {
  if (availability.available) {
    describe(title, suite);
    return;
  }
  const message = unavailableMessage(availability);
  if (availability.required) {
    describe(title, () => {
      test(`${availability.name} is reachable`, () => {
        throw new Error(message);
      });
    });
    return;
  }
  console.warn(`\n⚠️  ${message}\n`);
  describe.skip(title, suite);
}
