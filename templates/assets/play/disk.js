// Opened from a file on disk (file://), the browser refuses the table's modules and the
// runtime's files: this classic script (which still runs there) says that the table needs
// the site served, in place of the "needs JavaScript" line.
(function () {
  if (location.protocol !== "file:") return;
  var off = document.querySelector(".play-off"), data = document.getElementById("play-text");
  if (!off || !data) return;
  try { off.textContent = JSON.parse(data.textContent).fileUrl; } catch { /* keep the line */ }
})();
