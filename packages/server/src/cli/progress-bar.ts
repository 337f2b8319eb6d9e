/**
 * A one-line progress bar on stderr for long CLI jobs, drawn only when stderr is a terminal
 * (a redirected stderr gets no carriage-return noise) and at most ten times a second.
 */
export interface ProgressBar {
  update(done: number): void;
  finish(): void;
}

const WIDTH = 30;

export function createProgressBar(total: number, label: string, stream: NodeJS.WriteStream = process.stderr): ProgressBar {
  if (!stream.isTTY) return { update: () => undefined, finish: () => undefined };
  let drawnAt = 0;
  const draw = (done: number) => {
    const share = total > 0 ? Math.min(1, done / total) : 1;
    const filled = Math.round(share * WIDTH);
    stream.write(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${Math.round(share * 100)}% ${done}/${total}`);
  };
  draw(0);
  return {
    update(done) {
      const now = Date.now();
      if (now - drawnAt < 100) return;
      drawnAt = now;
      draw(done);
    },
    finish() {
      draw(total);
      stream.write('\n');
    },
  };
}
