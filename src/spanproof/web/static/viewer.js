// Claim buttons show their panel in the source pane (buttons give Enter/Space for free); one
// panel is open at a time, and every button that controls a panel reflects it in aria-expanded.
function setOpen(panel, open) {
  panel.hidden = !open;
  document.querySelectorAll(`button[aria-controls="${panel.id}"]`).forEach((b) => b.setAttribute("aria-expanded", String(open)));
}
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[aria-controls]");
  const panel = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!panel) return;
  const opening = panel.hidden;
  document.querySelectorAll(".pane-source .panel:not([hidden])").forEach((p) => { if (p !== panel) setOpen(p, false); });
  setOpen(panel, opening);
  const empty = document.getElementById("source-empty");
  if (empty) empty.hidden = opening;
  if (opening) panel.scrollIntoView({ block: "nearest" });
});
