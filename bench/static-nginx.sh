#!/usr/bin/env bash
# nginx serving DIR/www from memory as the benches compare the site with:
# sendfile, keep-alive, gzip_static (`index.html.gz` beside `index.html`),
# no access log. Runs in the foreground (exec), so a caller's `$!` is
# nginx's own pid:
#
#   bench/static-nginx.sh DIR PORT &
#
# Writes DIR/nginx.conf; nginx's pid file and error log go in DIR.
set -euo pipefail
DIR=${1:?usage: bench/static-nginx.sh DIR PORT}
PORT=${2:?usage: bench/static-nginx.sh DIR PORT}
cat >"$DIR/nginx.conf" <<NGINX
daemon off;
worker_processes auto;
user $(id -un) $(id -gn);
pid $DIR/nginx.pid;
error_log $DIR/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  open_file_cache max=16;
  types { text/html html; }
  gzip_static on;
  server {
    listen 127.0.0.1:$PORT;
    root $DIR/www;
    index index.html;
  }
}
NGINX
exec "$(command -v nginx || echo /usr/sbin/nginx)" -c "$DIR/nginx.conf" -p "$DIR" 2>>"$DIR/nginx-error.log"
