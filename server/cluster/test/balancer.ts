import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './redis-process.ts';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
/** The configuration the README documents; the test runs it with the listen and server lines replaced. */
const DOCUMENTED = new URL('../../../docs/cluster/nginx.conf', import.meta.url);

export interface Balancer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Debian's nginx, unprivileged on a loopback port, running docs/cluster/nginx.conf in front of `ports`. */
export async function startBalancer(ports: readonly number[]): Promise<Balancer> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}; run \`npm run provision\`.`);
  const dir = await mkdtemp(path.join(tmpdir(), 'chatbot-balancer-'));
  const port = await freePort();
  let site = await readFile(DOCUMENTED, 'utf8');
  const lines = ['server 127.0.0.1:3001', 'server 127.0.0.1:3002', 'server 127.0.0.1:3003'];
  lines.forEach((line, i) => {
    if (!site.includes(line)) throw new Error(`docs/cluster/nginx.conf no longer holds "${line}"`);
    site = site.replace(line, `server 127.0.0.1:${ports[i]}`);
  });
  site = site.replace('listen 8080;', `listen 127.0.0.1:${port};`);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, temp));
  const main = `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr error;
events { worker_connections 1024; }
http {
    access_log off;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/cluster.conf;
}
`;
  await writeFile(path.join(dir, 'cluster.conf'), site);
  await writeFile(path.join(dir, 'nginx.conf'), main);
  const child = spawn(NGINX, ['-p', dir, '-e', 'stderr', '-c', path.join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`nginx did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
