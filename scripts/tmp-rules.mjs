const { readSessions } = await import('/work/main/dist/sessions/read.js');
const { extractSession } = await import('/work/main/dist/harvest/extract/index.js');
const files = process.argv.slice(2);
const r = await readSessions(files);
for (const s of r.sessions) for (const c of extractSession(s)) console.log(c.rule.padEnd(22), c.category.padEnd(10), c.confidence, '|', c.title.slice(0, 90));
