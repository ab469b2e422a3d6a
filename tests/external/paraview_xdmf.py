# Run by pvpython (tests/external/paraview_xdmf.sh): open the XDMF series the way
# ParaView does and print, per time step, the points, the cells and the point
# arrays the reader sees. Usage: pvpython paraview_xdmf.py /ABSOLUTE/tissue.xdmf
import sys

from paraview import servermanager
from paraview.simple import OpenDataFile

reader = OpenDataFile(sys.argv[1])
times = list(reader.TimestepValues) or [0.0]
for t in times:
    reader.UpdatePipeline(t)
    data = servermanager.Fetch(reader)
    if data.IsA("vtkMultiBlockDataSet"):
        data = data.GetBlock(0)
    arrays = sorted(data.GetPointData().GetArrayName(i)
                    for i in range(data.GetPointData().GetNumberOfArrays()))
    print(f"frame t={t:g} points={data.GetNumberOfPoints()} cells={data.GetNumberOfCells()} "
          f"arrays={','.join(arrays)}")
