// Loads the Python runtime (npm pyodide, served from the site's own files) and the rules
// engine zip the build packed (named by its hash), and returns the table's one entry point:
// call(name, payload) -> answer, through a Session of site_builder/engine/play/table.py.

export async function loadTable(runtimeURL, engineURL, progress) {
  progress(1);
  const {loadPyodide} = await import(new URL("pyodide.mjs", runtimeURL).href);
  const py = await loadPyodide({indexURL: runtimeURL, stdout: () => {}, stderr: () => {}});
  progress(2);
  const response = await fetch(engineURL);
  if (!response.ok) throw new Error("engine " + response.status);
  py.unpackArchive(await response.arrayBuffer(), "zip");
  const session = py.pyimport("site_builder.engine.play.table").Session();
  progress(3);
  return (name, payload) => JSON.parse(session.call(name, JSON.stringify(payload ?? {})));
}
