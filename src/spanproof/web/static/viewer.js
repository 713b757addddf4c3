// Claim buttons toggle their panel (buttons give Enter/Space for free); every button that
// controls the same panel reflects its state in aria-expanded.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button[aria-controls]");
  const panel = button && document.getElementById(button.getAttribute("aria-controls"));
  if (!panel) return;
  panel.hidden = !panel.hidden;
  document.querySelectorAll(`button[aria-controls="${panel.id}"]`).forEach((b) => b.setAttribute("aria-expanded", String(!panel.hidden)));
  if (!panel.hidden) panel.scrollIntoView({ block: "nearest" });
});
