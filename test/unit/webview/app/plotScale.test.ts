import { strict as assert } from 'node:assert';
import { drawingWidth, fittedLaneHeight, GROUP_LANE_HEIGHT, LABEL_WIDTH, MIN_LANE_HEIGHT, PlotScale } from '../../../../src/webview/app/plotScale';

describe('webview/app/plotScale', () => {
  it('maps the window onto the plot right of the labels, clamping far-off times near its edges', () => {
    const scale = new PlotScale({ start: 1000, end: 2000 }, LABEL_WIDTH + 500, 40);
    assert.equal(scale.plotWidth, 500);
    assert.equal(scale.x(1000), LABEL_WIDTH);
    assert.equal(scale.x(2000), LABEL_WIDTH + 500);
    const cx = scale.clampedX();
    assert.equal(cx(1500), scale.x(1500));
    assert.equal(cx(-1e12), LABEL_WIDTH - 10);
    assert.equal(cx(1e12), LABEL_WIDTH + 510);
  });

  it('puts the group lane on top and member lanes below it', () => {
    const scale = new PlotScale({ start: 0, end: 1 }, 800, 40);
    assert.equal(scale.laneTop(-1), 0);
    assert.equal(scale.laneTop(0), GROUP_LANE_HEIGHT);
    assert.equal(scale.laneTop(2), GROUP_LANE_HEIGHT + 80);
    assert.equal(scale.laneCenter(2), GROUP_LANE_HEIGHT + 100);
  });

  it('fits lanes to the area within their bounds, and keeps the last width while the area has none', () => {
    assert.equal(fittedLaneHeight(0, 600), MIN_LANE_HEIGHT);
    assert.equal(fittedLaneHeight(200, 600), MIN_LANE_HEIGHT);
    assert.equal(fittedLaneHeight(2, 1000), 46);
    assert.equal(fittedLaneHeight(10, GROUP_LANE_HEIGHT + 10 + 400), 40);
    assert.equal(drawingWidth(0, 900), 900);
    assert.equal(drawingWidth(1200, 900), 1200);
    assert.equal(drawingWidth(50, 900), LABEL_WIDTH + 100);
  });
});
