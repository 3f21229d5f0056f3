#!/bin/sh
# The container image's build steps, in one place: the Dockerfile runs them, and
# scripts/release/package/test/container.test.mjs runs the same steps in a plain shell on this
# machine (base images cannot be pulled here), the runtime step in a throwaway root.
#
# Usage: scripts/release/package/container-build.sh STEP [DIR]
#   toolchain      Debian packages and Rust (rustup) the build needs (the Dockerfile's build
#                  stage; not run by the test: it needs the internet and changes the machine)
#   build          npm install from package-lock.json, then the addon, the daemon and the
#                  dashboard (TRIBUTARY_PREBUILT_ADDON=1 keeps an addon already built here)
#   stage DIR      the run-time files into DIR/usr/lib/tributary and the command
#                  DIR/usr/local/bin/tributary (for the runtime stage to copy)
#   runtime        in the runtime image: the libraries the addon links, the user tributary and
#                  its folder /var/lib/tributary
set -eu
cd "$(dirname "$0")/../../.."

step=${1:-}
case "$step" in
toolchain)
	apt-get update
	apt-get install -y --no-install-recommends ca-certificates curl gcc libc6-dev pkg-config libssl-dev
	rm -rf /var/lib/apt/lists/*
	curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs |
		sh -s -- -y --profile minimal --default-toolchain stable
	;;
build)
	npm install --no-audit --no-fund
	if [ "${TRIBUTARY_PREBUILT_ADDON:-}" = 1 ]; then
		echo "container-build: keeping the addon built here: $(ls native/napi/*.node)"
	else
		npm run build:package -w native/napi
	fi
	npm run build -w @tributary/daemon -w daemon/dashboard
	;;
stage)
	dir=${2:?stage needs a DIR}
	node scripts/release/package/stage.mjs "$dir/usr/lib/tributary"
	mkdir -p "$dir/usr/local/bin"
	# The launcher's #!/usr/bin/env node finds the image's /usr/local/bin/node.
	ln -s ../../lib/tributary/daemon/bin/tributary.js "$dir/usr/local/bin/tributary"
	;;
runtime)
	# libssl3 for the addon's WebRTC (str0m); Node.js itself brings its own OpenSSL.
	if ! dpkg-query -W -f='${Status}' libssl3 2>/dev/null | grep -q 'ok installed'; then
		apt-get update
		apt-get install -y --no-install-recommends libssl3
		rm -rf /var/lib/apt/lists/*
	fi
	if ! getent passwd tributary >/dev/null; then
		groupadd --system tributary
		useradd --system --gid tributary --home-dir /var/lib/tributary --no-create-home \
			--shell /usr/sbin/nologin tributary
	fi
	install -d -o tributary -g tributary -m 0750 /var/lib/tributary
	;;
*)
	sed -n '2,/^set -eu/p' "$0" | sed '$d' >&2
	exit 2
	;;
esac
