"""The interface descriptions parse with the reference Python varlink implementation.

docs/*.varlink are the texts the daemon serves (BoxInterface.swift, VarlinkServiceInterface.swift);
BoxInterfaceTests checks that they are equal to the texts in the code.
"""
import pathlib

import varlink

DOCS = pathlib.Path(__file__).resolve().parents[2] / "docs"


def load(name: str) -> varlink.Interface:
    return varlink.Interface((DOCS / name).read_text())


def test_box_interface_parses_with_every_member():
    interface = load("io.leitner.Box.varlink")
    assert interface.name == "io.leitner.Box"
    spec_methods = ["Status", "Prepare", "Next", "Grade", "Undo", "Add", "Move", "Delete", "Show",
                    "List", "ReadAsset", "Calendar", "Log"]
    spec_types = ["Side", "Card", "Asset", "Test", "Day", "LogEntry"]
    spec_errors = ["NoSuchCard", "InvalidCardId", "InvalidLevel", "CardExists", "NotInTest",
                   "TestComplete", "NothingToUndo", "InvalidAsset", "StoreFailure"]
    additions = ["Doctor", "Problem", "DuplicateFront"]
    for name in spec_methods + spec_types + spec_errors + additions:
        assert name in interface.members, name


def test_box_interface_additions_are_nullable_or_new():
    interface = load("io.leitner.Box.varlink")
    add = interface.members["Add"]
    assert "allowDuplicate" in add.in_type.fields
    assert "problems" in interface.members["Status"].out_type.fields
    log_entry = interface.members["LogEntry"].type.fields
    assert {"date", "origin"} <= set(log_entry)
    problem = interface.members["Problem"].type.fields
    assert list(problem) == ["kind", "path", "reason", "advice"]
    assert list(problem["kind"].fields) == ["damagedCard", "loosePair", "duplicateCard", "outsideLink", "strayEntry",
                                             "damagedState", "syncConflict", "badTag", "badMedium"]
    # R25–R27: the old methods take the filters as new, nullable parameters.
    for method in ["List", "Search", "Stats", "Next"]:
        assert {"tags", "notTags"} <= set(interface.members[method].in_type.fields), method


def test_service_interface_parses():
    interface = load("org.varlink.service.varlink")
    assert interface.name == "org.varlink.service"
    for name in ["GetInfo", "GetInterfaceDescription", "InterfaceNotFound", "MethodNotFound",
                 "MethodNotImplemented", "InvalidParameter", "PermissionDenied", "ExpectedMore"]:
        assert name in interface.members, name
