// Loads the Python runtime (npm pyodide, served from the site's own files) and the rules
// engine zip the build packed (named by its hash), and returns the table's one entry point:
// call(name, payload) -> answer, through a Session of site_builder/engine/play/table.py.
//
// The runtime and the engine are fetched side by side, and loading may start before the
// reader presses Start (main.js starts it while they choose the game): the one load is
// shared. A load that fails rejects with a LoadError (the connection or the browser); a
// request the engine cannot answer throws from call, which is something else.

export class LoadError extends Error {}

export async function loadTable(runtimeURL, engineURL, progress) {
  progress(1);
  const engine = fetch(engineURL).then(response => {
    if (!response.ok) throw new LoadError("engine " + response.status);
    return response.arrayBuffer();
  });
  engine.catch(() => {});  // awaited below; a failure there is the one reported
  let py, session;
  try {
    const {loadPyodide} = await import(new URL("pyodide.mjs", runtimeURL).href);
    py = await loadPyodide({indexURL: runtimeURL, stdout: () => {}, stderr: () => {}});
    progress(2);
    py.unpackArchive(await engine, "zip");
    session = py.pyimport("site_builder.engine.play.table").Session();
  } catch (error) {
    throw error instanceof LoadError ? error : new LoadError(String(error));
  }
  progress(3);
  return (name, payload) => JSON.parse(session.call(name, JSON.stringify(payload ?? {})));
}
