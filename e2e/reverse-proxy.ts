import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.ts';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The configuration README and operators use; the test runs it with only these lines replaced. */
const DOCUMENTED = new URL('../docs/reverse-proxy/nginx.conf', import.meta.url);

export interface ReverseProxy {
  readonly port: number;
  /** The self-signed certificate the proxy presents, for clients that verify it. */
  readonly certificate: string;
  readonly output: () => string;
  stop(): Promise<void>;
}

function replaceOnce(text: string, line: string, replacement: string): string {
  if (!text.includes(line))
    throw new Error(`docs/reverse-proxy/nginx.conf no longer holds "${line}"; update e2e/reverse-proxy.ts with it`);
  return text.replace(line, replacement);
}

/**
 * Debian's nginx, unprivileged on a loopback port, running docs/reverse-proxy/nginx.conf with
 * a certificate for `hostName` made here by openssl, in front of the chat server on `upstreamPort`.
 */
export async function startReverseProxy(hostName: string, upstreamPort: number): Promise<ReverseProxy> {
  if (!existsSync(NGINX)) throw new Error(`nginx is not installed at ${NGINX}; run \`npm run provision\`.`);
  const dir = await mkdtemp(path.join(tmpdir(), 'chatbot-proxy-'));
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      `/CN=${hostName}`,
      '-addext',
      `subjectAltName=DNS:${hostName}`,
    ],
    {
      stdio: 'ignore',
    },
  );
  const port = await freePort();
  let site = await readFile(DOCUMENTED, 'utf8');
  site = replaceOnce(site, 'listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`);
  site = replaceOnce(site, 'server_name bot.example.com;', `server_name ${hostName};`);
  site = replaceOnce(site, '/etc/ssl/certs/bot.example.com.pem', cert);
  site = replaceOnce(site, '/etc/ssl/private/bot.example.com.key', key);
  site = replaceOnce(site, 'server 127.0.0.1:3000;', `server 127.0.0.1:${upstreamPort};`);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) await mkdir(path.join(dir, temp));
  // What a distribution's nginx.conf provides around a site file, pointed at this folder.
  const main = `${process.getuid?.() === 0 ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log stderr warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/chatbot.conf;
}
`;
  await writeFile(path.join(dir, 'chatbot.conf'), site);
  await writeFile(path.join(dir, 'nginx.conf'), main);
  const child: ChildProcess = spawn(NGINX, ['-p', dir, '-e', 'stderr', '-c', path.join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
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
    port,
    certificate: await readFile(cert, 'utf8'),
    output: () => output,
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
