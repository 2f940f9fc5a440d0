# Sourced by scripts/install-vscode.sh before its nested `npm install`. Under `npm start`/`npm test`
# the outer npm (running on Node 20) exported its run-script variables; npm_config_user_agent names
# node/v20, which code-server's postinstall reads and refuses. None of them describe the nested
# install, so all are dropped (npm_*, any case, and npm's NODE, INIT_CWD); the machine's npmrc
# files still apply. NODE_OPTIONS goes too: it was meant for the outer Node.
while IFS= read -r name; do
  unset "$name"
done < <(compgen -e | grep -iE '^(npm_.*|node|init_cwd|node_options)$')
