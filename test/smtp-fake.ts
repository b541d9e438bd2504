import { createServer, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

/**
 * A minimal SMTP server on 127.0.0.1 (a free port) that accepts every message and keeps it, so the
 * real nodemailer transport is exercised offline. No TLS, no authentication.
 */
export type ReceivedMail = { from: string; to: string[]; data: string };
export type FakeSmtp = { url: string; port: number; messages: ReceivedMail[]; close: () => Promise<void> };

export async function startFakeSmtp(): Promise<FakeSmtp> {
  const messages: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.setEncoding("utf8");
    let buffer = "";
    let inData = false;
    let envelope: ReceivedMail = { from: "", to: [], data: "" };
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply("220 fake-smtp ESMTP ready");
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      for (;;) {
        if (inData) {
          const end = buffer.indexOf("\r\n.\r\n");
          if (end < 0) return;
          envelope.data = buffer.slice(0, end).replace(/^\.\./gm, ".");
          buffer = buffer.slice(end + 5);
          inData = false;
          messages.push(envelope);
          envelope = { from: "", to: [], data: "" };
          reply("250 2.0.0 queued");
          continue;
        }
        const newline = buffer.indexOf("\r\n");
        if (newline < 0) return;
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO") {
          reply("250-fake-smtp");
          reply("250 8BITMIME");
        } else if (verb === "HELO" || verb === "RSET" || verb === "NOOP") reply("250 OK");
        else if (verb === "MAIL") {
          envelope.from = /<([^>]*)>/.exec(line)?.[1] ?? "";
          reply("250 OK");
        } else if (verb === "RCPT") {
          envelope.to.push(/<([^>]*)>/.exec(line)?.[1] ?? "");
          reply("250 OK");
        } else if (verb === "DATA") {
          inData = true;
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "QUIT") {
          reply("221 bye");
          socket.end();
        } else reply("502 command not implemented");
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
