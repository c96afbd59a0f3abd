// Line charts of results with Chart.js (loaded as window.Chart from
// /vendor/chart.umd.js). Colours are the Okabe-Ito palette and every line also
// has its own point shape, so variants stay apart for colour-blind readers and
// on a washed-out projector.

export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
const SHAPES = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'rectRounded', 'cross'];

export function styleFor(i) {
  return {
    borderColor: PALETTE[i % PALETTE.length],
    backgroundColor: PALETTE[i % PALETTE.length],
    pointStyle: SHAPES[i % SHAPES.length],
    pointRadius: 4,
    borderWidth: 2,
  };
}

// Create or update a line chart on canvas: series is [{label, points:[{x,y}]}].
export function lineChart(canvas, existing, { series, xTitle, yTitle, logX = false }) {
  const datasets = series.map((s, i) => ({ label: s.label, data: s.points, ...styleFor(i) }));
  if (existing) {
    existing.data.datasets = datasets;
    existing.options.scales.x.title.text = xTitle;
    existing.options.scales.y.title.text = yTitle;
    existing.options.scales.x.type = logX ? 'logarithmic' : 'linear';
    existing.update();
    return existing;
  }
  return new window.Chart(canvas, {
    type: 'line',
    data: { datasets },
    options: {
      animation: false,
      maintainAspectRatio: false,
      parsing: false,
      interaction: { mode: 'nearest', intersect: false },
      scales: {
        x: { type: logX ? 'logarithmic' : 'linear', title: { display: true, text: xTitle } },
        y: { beginAtZero: true, title: { display: true, text: yTitle } },
      },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}
