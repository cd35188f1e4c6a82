/**
 * Whether a process with this id exists, for lock files that hold their owner's pid: one
 * left by a process that is gone may be taken over. EPERM means it exists, owned by another user.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
