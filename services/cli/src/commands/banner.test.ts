import { describe, expect, it } from 'vitest';
import { banner } from './up.js';

const running = {
  url: 'http://127.0.0.1:8080',
  key: 'cg_test_abc',
  electionDay: '2024-11-05',
  demo: false,
  failed: [],
};

describe('the banner of civicgraph up', () => {
  it('says whether the admin API is on, and how to turn it on', () => {
    expect(banner({ ...running, admin: true })).toContain('admin API: http://127.0.0.1:8080/admin/v1/keys');
    expect(banner({ ...running, admin: false })).toContain('admin API: off (set CIVIC_ADMIN_TOKEN');
  });

  it('lists a curl for the ballot with the key it prints', () => {
    expect(banner({ ...running, admin: false })).toContain(
      'curl -H "Authorization: Bearer cg_test_abc" "http://127.0.0.1:8080/v1/ballot?lat=39.7392&lng=-104.9903&date=2024-11-05"',
    );
  });

  it('says where the agent (MCP) endpoint is', () => {
    expect(banner({ ...running, admin: false })).toContain(
      'agent (MCP, Streamable HTTP): http://127.0.0.1:8080/v1/agent',
    );
  });

  it('links the ballot explorer at downtown Denver on the election day of its curl', () => {
    expect(banner({ ...running, admin: false })).toContain(
      'ballot explorer: http://127.0.0.1:8080/explore?q=39.7392,-104.9903&date=2024-11-05',
    );
  });
});
