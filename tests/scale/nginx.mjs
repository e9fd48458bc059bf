// nginx in front of several instances on loopback, as deploy/ puts it
// (round robin, a failed instance skipped for 2 s, the client's address
// passed on), for the scale tests and the soak (bench/soak.mjs): its
// configuration, written once.

/**
 * The configuration of nginx listening on `port` and spreading requests
 * over the instances on `sites` (ports), its files in `dir`. A soak asks
 * for more connections (`workerConnections`, `keepalive`) and sets time
 * limits (`httpExtra`, `locationExtra`: lines added to those blocks).
 */
export function loadBalancerConfig({
  dir,
  sites,
  port,
  workerConnections = 256,
  keepalive = 16,
  httpExtra = "",
  locationExtra = "",
}) {
  const servers = sites
    .map((site) => `    server 127.0.0.1:${site} max_fails=1 fail_timeout=2s;`)
    .join("\n");
  return `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/nginx-error.log warn;
daemon off;
events { worker_connections ${workerConnections}; }
http {
  access_log off;${httpExtra ? `\n  ${httpExtra}` : ""}
  client_body_temp_path ${dir}/nginx-body;
  proxy_temp_path ${dir}/nginx-proxy;
  fastcgi_temp_path ${dir}/nginx-fastcgi;
  uwsgi_temp_path ${dir}/nginx-uwsgi;
  scgi_temp_path ${dir}/nginx-scgi;
  upstream site {
${servers}
    keepalive ${keepalive};
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://site;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_next_upstream error timeout http_502;${locationExtra ? `\n      ${locationExtra}` : ""}
      add_header X-Upstream $upstream_addr always;
    }
  }
}
`;
}
