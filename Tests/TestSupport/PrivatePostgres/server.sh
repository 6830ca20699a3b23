#!/usr/bin/env bash
# A private PostgreSQL 15 for one test suite, in DIR (empty, created by the caller): a CA and the
# server's certificate made with openssl (and a second CA that signed nothing of this server),
# a cluster whose only client access is TLS on 127.0.0.1 with SCRAM-SHA-256
# (`hostnossl all all all reject`), the superuser `researcher` with the password in DIR/password,
# and the databases `study` (empty) and `other` (holding a table of something else).
# Prints "port N" when it is up, then obeys lines on stdin: "stop" (immediately, as a crash
# would), "start"; each answered with a line. At the end of stdin the server is stopped and DIR
# removed, so a test process that dies does not leave a server behind.
# postgres refuses to run as root: as root, the server runs as the user postgres (or nobody).
set -euo pipefail
dir=$1
bin=/usr/lib/postgresql/15/bin
server_user=$(id -un)
if [ "$(id -u)" -eq 0 ]; then
    server_user=postgres
    getent passwd postgres >/dev/null || server_user=nobody
fi
as_server() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u "$server_user" -- "$@"; else "$@"; fi
}
cd "$dir"
chmod 0755 "$dir"

make_ca() {  # NAME
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout "$1.key" -out "$1.pem" \
        -days 2 -subj "/CN=hrvmon test $1" 2>/dev/null
}
make_ca ca
make_ca other-ca
openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr \
    -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >server.ext
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile server.ext 2>/dev/null
head -c 18 /dev/urandom | base64 | tr '+/' '-_' >password
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

mkdir data run
chmod 0600 server.key
chmod 0644 password
[ "$(id -u)" -eq 0 ] && chown "$server_user" data run server.key server.crt password
as_server "$bin/initdb" -D data -U researcher --auth=scram-sha-256 --pwfile=password -E UTF8 --locale=C.UTF-8 --no-sync >initdb.log
chmod 0600 password
cat >>data/postgresql.conf <<CONF
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir/run'
ssl = on
ssl_cert_file = '$dir/server.crt'
ssl_key_file = '$dir/server.key'
password_encryption = 'scram-sha-256'
fsync = off
log_min_messages = warning
CONF
cat >data/pg_hba.conf <<HBA
hostnossl all all all reject
hostssl all all 127.0.0.1/32 scram-sha-256
local all all reject
HBA
start() { as_server "$bin/pg_ctl" -D data -l "$dir/run/server.log" -w -t 60 start >/dev/null; }
stop() { as_server "$bin/pg_ctl" -D data -m immediate -w stop >/dev/null 2>&1 || true; }
trap 'stop; cd /; rm -rf "$dir"' EXIT
start
export PGPASSWORD
PGPASSWORD=$(cat password)
psql() { "$bin/psql" -X -q -v ON_ERROR_STOP=1 "host=127.0.0.1 port=$port user=researcher sslmode=verify-full sslrootcert=$dir/ca.pem dbname=$1" -c "$2"; }
psql postgres 'CREATE DATABASE study'
psql postgres 'CREATE DATABASE other'
psql other 'CREATE TABLE invoices (id int primary key, amount numeric)'
echo "port $port"
while read -r command; do
    case $command in
        stop) stop; echo stopped ;;
        start) start; echo started ;;
    esac
done
