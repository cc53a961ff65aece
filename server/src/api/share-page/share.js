// The share page's before/after slider: the range input over each photo moves the divide.
// Without JavaScript the page still shows both photos half and half, and the original's link.
for (const input of document.querySelectorAll('input[data-compare]')) {
  const figure = input.closest('figure');
  const show = () => figure.style.setProperty('--pos', `${input.value}%`);
  input.addEventListener('input', show);
  show();
}
