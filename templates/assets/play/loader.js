// Loads the Python runtime (npm pyodide, served from the site's own files) and the rules
// engine zip the build packed (named by its hash), and returns the table's one entry point:
// call(name, payload) -> answer, through a Session of site_builder/engine/play/table.py.
//
// Python starts from the build's snapshot of its memory, taken once Python had started and
// imported the engine from that same zip (site_builder/render/snapshot.mjs): on a
// phone-speed CPU that is about 2 s where starting Python takes about 19, and the zip is not
// needed (the engine imports nothing later). A browser without DecompressionStream (the
// snapshot is gzip) starts Python itself and unpacks the zip.
//
// The runtime, the snapshot and the engine are fetched side by side, and loading may start
// before the reader presses Start (main.js starts it while they choose the game): the one
// load is shared. A load that fails rejects with a LoadError (the connection or the
// browser); a request the engine cannot answer throws from call, which is something else.

export class LoadError extends Error {}

function bytes(url) {
  const got = fetch(url).then(response => {
    if (!response.ok) throw new LoadError(url + " " + response.status);
    return response.arrayBuffer();
  });
  got.catch(() => {});  // awaited below; a failure there is the one reported
  return got;
}

// The snapshot's bytes, gunzipped here unless the server already did (Content-Encoding).
async function gunzip(data) {
  const head = new Uint8Array(data, 0, 2);
  if (head[0] !== 0x1f || head[1] !== 0x8b) return new Uint8Array(data);
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function loadTable(runtimeURL, engineURL, snapshotURL, progress) {
  progress(1);
  const snapshot = snapshotURL && "DecompressionStream" in globalThis
    ? bytes(snapshotURL).then(gunzip) : null;
  const engine = snapshot ? null : bytes(engineURL);
  let py, session;
  try {
    const {loadPyodide} = await import(new URL("pyodide.mjs", runtimeURL).href);
    py = await loadPyodide({indexURL: runtimeURL, stdout: () => {}, stderr: () => {},
                            ...(snapshot ? {_loadSnapshot: snapshot} : {})});
    progress(2);
    if (engine) py.unpackArchive(await engine, "zip");
    session = py.pyimport("site_builder.engine.play.table").Session();
  } catch (error) {
    throw error instanceof LoadError ? error : new LoadError(String(error));
  }
  progress(3);
  return (name, payload) => JSON.parse(session.call(name, JSON.stringify(payload ?? {})));
}
