/* SPDX-License-Identifier: MIT */
/*
 * drivers/usb/usb.h - the parts of USB 2.0 chapter 9 and of
 * HID 1.11 that enumerating a keyboard needs: standard requests,
 * descriptor types, class codes.
 */
#ifndef ARCH_X86_64_USB_H
#define ARCH_X86_64_USB_H

/* bmRequestType: direction, type, recipient. */
#define USB_DIR_IN          0x80
#define USB_TYPE_CLASS      0x20
#define USB_RECIP_INTERFACE 0x01

/* Standard requests (bRequest). */
#define USB_REQ_GET_DESCRIPTOR    6
#define USB_REQ_SET_CONFIGURATION 9

/* HID class requests. */
#define HID_REQ_SET_IDLE     0x0a
#define HID_REQ_SET_PROTOCOL 0x0b
#define HID_PROTOCOL_BOOT    0

/* Descriptor types. */
#define USB_DT_DEVICE     1
#define USB_DT_CONFIG     2
#define USB_DT_INTERFACE  4
#define USB_DT_ENDPOINT   5

/* Classes, subclasses, protocols. */
#define USB_CLASS_HID         3
#define USB_CLASS_HUB         9
#define HID_SUBCLASS_BOOT     1
#define HID_PROTOCOL_KEYBOARD 1

#define USB_ENDPOINT_IN         0x80
#define USB_ENDPOINT_INTERRUPT  3     /* bmAttributes 1:0 */

/* PORTSC speed ids (xHCI's default protocol speed ids). */
#define USB_SPEED_FULL  1
#define USB_SPEED_LOW   2
#define USB_SPEED_HIGH  3
#define USB_SPEED_SUPER 4

#endif
