// Gazebo's URDF -> SDF conversion as a test oracle (test/oracles.py, gazebo()).
//
// Loads a URDF (or SDF) file with SDFormat's sdf::Root::Load, the call Gazebo makes, and prints
// every error as "error: <message>", then "model <name> links <n> joints <n>" and one line
// "link <name> mass <kg> visuals <n> collisions <n>" per link (after Gazebo's fixed-joint
// lumping). Exit status 0 iff there were no errors and the file holds a model; 1 otherwise; 2
// on wrong usage.
// Build (scripts/setup-oracles.sh):
//   g++ -std=c++17 -O1 sdformat_probe.cc -o sdformat_probe $(pkg-config --cflags --libs sdformat12)
#include <cstdint>
#include <iostream>

#include <sdf/sdf.hh>

int main(int argc, char **argv)
{
  if (argc != 2) {
    std::cerr << "usage: sdformat_probe FILE\n";
    return 2;
  }
  sdf::Root root;
  const sdf::Errors errors = root.Load(argv[1]);
  for (const auto &error : errors) {
    std::cout << "error: " << error.Message() << "\n";
  }
  const sdf::Model *model = root.Model();
  if (model != nullptr) {
    std::cout << "model " << model->Name() << " links " << model->LinkCount() << " joints "
              << model->JointCount() << "\n";
    for (uint64_t index = 0; index < model->LinkCount(); ++index) {
      const sdf::Link *link = model->LinkByIndex(index);
      std::cout << "link " << link->Name() << " mass " << link->Inertial().MassMatrix().Mass()
                << " visuals " << link->VisualCount() << " collisions "
                << link->CollisionCount() << "\n";
    }
  }
  return errors.empty() && model != nullptr ? 0 : 1;
}
