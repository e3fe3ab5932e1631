// A server that fails before the handshake: it writes a few lines to stderr and exits with 3.
// It also prints the secret it was given, to prove error messages redact env values.
for (let i = 1; i <= 30; i++) process.stderr.write(`boot step ${i}\n`);
process.stderr.write(`using token ${process.env.SECRET_TOKEN ?? "(none)"}\n`);
process.stderr.write("fatal: database unreachable at db.internal:5432\n");
process.exit(3);
