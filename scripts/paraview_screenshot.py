# The grown tissue as ParaView draws it by default (Surface view of the vertex
# cells), coloured by owning rank, saved as a PNG without a display:
#   pvbatch --force-offscreen-rendering scripts/paraview_screenshot.py \
#       out/e2e/tissue/tissue.xdmf out/tissue_paraview.png
# The last frame of the series is drawn.
import sys

from paraview.simple import (ColorBy, GetActiveViewOrCreate, OpenDataFile, ResetCamera,
                             SaveScreenshot, Show)

if len(sys.argv) != 3:
    sys.exit("usage: pvbatch scripts/paraview_screenshot.py TISSUE.xdmf OUT.png")
reader = OpenDataFile(sys.argv[1])
if reader is None:
    sys.exit(f"paraview_screenshot.py: error: {sys.argv[1]}: ParaView cannot open it")
times = list(reader.TimestepValues) or [0.0]
view = GetActiveViewOrCreate("RenderView")
view.ViewTime = times[-1]
display = Show(reader, view)  # the default representation: Surface
display.PointSize = 3.0
ColorBy(display, ("POINTS", "rank"))
display.RescaleTransferFunctionToDataRange(True, False)
view.CameraPosition = [0.0, 0.0, 1.0]  # from above: x along the decomposed axis
view.CameraViewUp = [0.0, 1.0, 0.0]
view.CameraParallelProjection = 1
ResetCamera(view)
width, height = 1600, 500
x0, x1, y0, y1, _, _ = reader.GetDataInformation().GetBounds()
# Fill the picture: half the visible height is the parallel scale.
view.CameraParallelScale = 0.55 * max((x1 - x0) * height / width, y1 - y0)
SaveScreenshot(sys.argv[2], view, ImageResolution=[width, height])
print(f"wrote {sys.argv[2]} (frame t={times[-1]:g}, {len(times)} frames)")
