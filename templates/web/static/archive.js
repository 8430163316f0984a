// Arrow keys step through the phases: ← the previous phase, → the next one
// (the page's <a rel="prev"> and <a rel="next"> links).
document.addEventListener("keydown", function (event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (/^(INPUT|TEXTAREA|SELECT)$/.test(event.target.tagName) || event.target.isContentEditable) return;
  var rel = {ArrowLeft: "prev", ArrowRight: "next"}[event.key];
  var link = rel && document.querySelector('a[rel="' + rel + '"]');
  if (link) {
    event.preventDefault();
    window.location.href = link.href;
  }
});
