import { readFileSync } from 'node:fs';

/** One stage of a Dockerfile: its base, its name and its instructions in order. */
export interface Stage {
  from: string;
  name?: string;
  instructions: { op: string; args: string }[];
}

/** The stages of a Dockerfile, with `ARG` defaults declared before the first FROM substituted. */
export function readDockerfile(path: string): { args: Record<string, string>; stages: Stage[] } {
  const lines = readFileSync(path, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, op = '', rest = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (op === 'ARG' && stages.length === 0) {
      const [k, v = ''] = rest.split('=');
      args[k!] = v;
    } else if (op === 'FROM') {
      const [image = '', , name] = rest.replace(/\$\{(\w+)\}/g, (_, k: string) => args[k] ?? '').split(/\s+/);
      stages.push({ from: image, instructions: [], ...(name === undefined ? {} : { name }) });
    } else stages.at(-1)?.instructions.push({ op, args: rest });
  }
  return { args, stages };
}

/**
 * Whether `.dockerignore` keeps `path` out of the build context: its patterns in order, the
 * last that matches the path or one of its parent folders deciding (`!` re-includes).
 */
export function dockerIgnores(patterns: readonly string[], path: string): boolean {
  let ignored = false;
  const parts = path.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  for (const raw of patterns) {
    const negated = raw.startsWith('!');
    const re = globToRegExp(negated ? raw.slice(1) : raw);
    if (prefixes.some((p) => re.test(p))) ignored = !negated;
  }
  return ignored;
}

export function readDockerignore(path: string): string[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
}

function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    if (glob.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (glob[i] === '*') re += '[^/]*';
    else if (glob[i] === '?') re += '[^/]';
    else re += glob[i]!.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re.replace(/^\//, '')}$`);
}
